package signature_test

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/signature"
)

// TestStaleSignature signs a skill with a real key, then edits it: the
// diagnostic sits on the # Status: value and names the key; editing only
// # Tags: keeps the signature.
func TestStaleSignature(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := approval.PublicKeyOf(priv)
	other := approval.PublicKeyOf(ed25519.NewKeyFromSeed([]byte(strings.Repeat("x", ed25519.SeedSize))))
	src := "# Skill: s\n# Status: Draft\n# Tags: a\n# Timeout: 30\nt:\n    emit(text=\"hi\")\ndefault: t\n"
	signed := string(approval.Stamp([]byte(src), "Approved "+approval.Sign(priv, []byte(src))))
	cases := []struct {
		name string
		key  ed25519.PublicKey
		src  string
		want bool
	}{
		{"valid", pub, signed, false},
		{"tags edited", pub, strings.Replace(signed, "# Tags: a", "# Tags: b, c", 1), false},
		{"body edited", pub, strings.Replace(signed, "hi", "hello", 1), true},
		{"other key", other, signed, true},
		{"key unknown", nil, strings.Replace(signed, "hi", "hello", 1), false},
		{"tags look-alike in the body", pub, strings.Replace(signed, "default: t\n", "# Tags: x\ndefault: t\n", 1), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, _, ds := lint.Check("s.skill.md", []byte(c.src), &lint.Context{ApprovalKey: c.key}, lint.Options{Rules: lint.NewRegistry(lint.Skillscript(), signature.Rules())})
			var got []string
			for _, d := range ds {
				if d.Rule == "stale-signature" {
					got = append(got, d.Message)
					if line := f.Lines.Position(d.Range.From).Line; line != 2 {
						t.Errorf("diagnostic on line %d, want the # Status: line 2", line)
					}
				}
			}
			if (len(got) > 0) != c.want {
				t.Fatalf("stale-signature fired %v, want %v", got, c.want)
			}
			want := "signature no longer matches: edited after approval"
			if strings.Contains(c.name, "look-alike") {
				want = "line 7 looks like a # Status:/# Tags: header inside the body; a signature cannot cover it"
			}
			if c.want && !strings.Contains(got[0], want) {
				t.Errorf("message %q", got[0])
			}
		})
	}
}
