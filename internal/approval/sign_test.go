package approval

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"

	"github.com/skillscript/skillc/syntax"
)

// testKey is a fixed key so failures reproduce.
func testKey(seed byte) (ed25519.PublicKey, ed25519.PrivateKey) {
	priv := ed25519.NewKeyFromSeed([]byte(strings.Repeat(string(rune('a'+seed)), ed25519.SeedSize)))
	return PublicKeyOf(priv), priv
}

const body = "# Skill: s\n# Status: Draft\n# Tags: t\n# Deadline: 30\n\nHello, ${USER}!\n"

func TestSignVerifyRoundTrip(t *testing.T) {
	pub, priv := testKey(0)
	token := Sign(priv, []byte(body))
	if !strings.HasPrefix(token, "v3:") || len(token) != 3+86 || strings.ContainsAny(token, "+/=") {
		t.Fatalf("token %q is not v3:<86 unpadded base64url chars>", token)
	}
	stamped := Stamp([]byte(body), "Approved "+token)
	if !strings.Contains(string(stamped), "\n# Status: Approved "+token+"\n") {
		t.Fatalf("stamp did not set the status line:\n%s", stamped)
	}
	if err := Verify(pub, stamped, token); err != nil {
		t.Fatalf("verify stamped: %v", err)
	}
	crlf := strings.ReplaceAll(string(stamped), "\n", "\r\n")
	if err := Verify(pub, []byte(crlf), token); err != nil {
		t.Errorf("CRLF body of the same skill does not verify: %v", err)
	}
	if Sign(priv, []byte(crlf)) != token {
		t.Errorf("CRLF and LF bodies sign differently")
	}
	retagged := strings.Replace(string(stamped), "# Tags: t", "# Tags: other, tags", 1)
	if err := Verify(pub, []byte(retagged), token); err != nil {
		t.Errorf("editing # Tags: broke the signature: %v", err)
	}
}

func TestVerifyRefusals(t *testing.T) {
	pub, priv := testKey(0)
	other, _ := testKey(1)
	token := Sign(priv, []byte(body))
	sig := strings.TrimPrefix(token, "v3:")
	var (
		missing   *MissingSignatureError
		malformed *MalformedTokenError
		version   *UnsupportedVersionError
		mismatch  *SignatureMismatchError
	)
	cases := []struct {
		name   string
		pub    ed25519.PublicKey
		src    string
		token  string
		target any
	}{
		{"missing", pub, body, "", &missing},
		{"blank", pub, body, "   ", &missing},
		{"no version", pub, body, sig, &malformed},
		{"empty signature", pub, body, "v3:", &malformed},
		{"padded", pub, body, token + "==", &malformed},
		{"std base64 chars", pub, body, "v3:" + strings.Repeat("+", 86), &malformed},
		{"short", pub, body, token[:40], &malformed},
		{"long", pub, body, token + "AAAA", &malformed},
		{"two words", pub, body, token + " extra", &malformed},
		{"v1", pub, body, "v1:" + sig, &version},
		{"v2 hmac", pub, body, "v2:0123abcd", &version},
		{"V3 upper", pub, body, "V3:" + sig, &malformed},
		{"wrong key", other, body, token, &mismatch},
		{"tampered body", pub, strings.Replace(body, "Hello", "Hullo", 1), token, &mismatch},
		{"deadline edited", pub, strings.Replace(body, "30", "300", 1), token, &mismatch},
		{"trailing space added", pub, strings.Replace(body, "!\n", "! \n", 1), token, &mismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Verify(c.pub, []byte(c.src), c.token)
			if err == nil {
				t.Fatalf("verified; want %T", c.target)
			}
			if !errors.As(err, c.target) {
				t.Fatalf("error %T %q, want %T", err, err, c.target)
			}
			if msg := err.Error(); msg == "" || strings.ToLower(msg[:1]) != msg[:1] {
				t.Errorf("message %q should start lower-case", msg)
			}
		})
	}
}

func TestMismatchNamesKeyFingerprint(t *testing.T) {
	pub, priv := testKey(0)
	err := Verify(pub, []byte(body+"x"), Sign(priv, []byte(body)))
	if err == nil || !strings.Contains(err.Error(), Fingerprint(pub)) || !strings.Contains(err.Error(), "edited after approval") {
		t.Fatalf("error %v should say edited after approval and name %s", err, Fingerprint(pub))
	}
}

func TestStamp(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"replace keeps crlf", "# Skill: a\r\n# Status: Draft\r\nx\r\n", "# Skill: a\r\n# Status: Approved T\r\nx\r\n"},
		{"insert after skill", "# Skill: a\n# Vars: X\nx\n", "# Skill: a\n# Status: Approved T\n# Vars: X\nx\n"},
		{"insert after skill without newline", "# Skill: a", "# Skill: a\n# Status: Approved T"},
		{"insert in fence", "prose\n```skillscript\n# Vars: X\n```\n", "prose\n```skillscript\n# Status: Approved T\n# Vars: X\n```\n"},
		{"insert at top", "x\n", "# Status: Approved T\nx\n"},
		{"fenced: the header inside the fence, not prose", "# Status: prose heading\n```skillscript\n# Skill: a\n# Status: Draft\n```\n", "# Status: prose heading\n```skillscript\n# Skill: a\n# Status: Approved T\n```\n"},
		{"fenced: insert after the skill line", "# Skill: prose\n```skillscript\n# Skill: a\nx\n```\n", "# Skill: prose\n```skillscript\n# Skill: a\n# Status: Approved T\nx\n```\n"},
		{"insert into empty", "", "# Status: Approved T\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(Stamp([]byte(c.src), "Approved T"))
			if got != c.want {
				t.Errorf("Stamp(%q) = %q, want %q", c.src, got, c.want)
			}
			if refCanonical(got) != refCanonical(c.src) {
				t.Errorf("stamping changed the signing input")
			}
		})
	}
}

func TestForceDraft(t *testing.T) {
	_, priv := testKey(0)
	signed := Stamp([]byte(body), "Approved "+Sign(priv, []byte(body)))
	f, _ := syntax.Parse("s.skill.md", signed)
	out, changed := ForceDraft(f)
	if !changed || !strings.Contains(string(out), "\n# Status: Draft\n") || strings.Contains(string(out), "v3:") {
		t.Fatalf("ForceDraft did not demote:\n%s", out)
	}
	f, _ = syntax.Parse("s.skill.md", []byte(body))
	if out, changed := ForceDraft(f); changed || string(out) != body {
		t.Errorf("ForceDraft changed a Draft")
	}
}

func TestCheckStamped(t *testing.T) {
	pub, priv := testKey(0)
	token := Sign(priv, []byte(body))
	good, _ := syntax.Parse("s.skill.md", Stamp([]byte(body), "Approved "+token))
	if err := CheckStamped(good, pub, token); err != nil {
		t.Fatalf("stamped skill: %v", err)
	}
	// a signature that verifies, but the header still says Draft
	draft, _ := syntax.Parse("s.skill.md", []byte(body))
	if err := CheckStamped(draft, pub, token); err == nil || !strings.Contains(err.Error(), "does not read back as Approved") {
		t.Errorf("unstamped skill: %v", err)
	}
}
