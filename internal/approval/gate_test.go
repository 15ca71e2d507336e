package approval

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

func subject(t *testing.T, src string, reach Reach) Subject {
	t.Helper()
	f, diags := syntax.Parse("s.skill.md", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	return Subject{Name: "s", File: f, Info: check.Check(f), Reach: reach}
}

const pure = "# Skill: s\n# Status: %s\n\nHello\n"
const effectful = "# Skill: s\n# Status: %s\n\nt:\n    shell(argv=[\"date\"]) -> D\n    emit(text=\"${D}\")\ndefault: t\n"

func withStatus(format, status string) string { return strings.Replace(format, "%s", status, 1) }

func TestGate(t *testing.T) {
	pub, priv := testKey(0)
	other, _ := testKey(1)
	sign := func(src string) string {
		return string(Stamp([]byte(src), "Approved "+Sign(priv, []byte(src))))
	}
	secured := Policy{Secured: true, PublicKey: pub, KeyPath: "/k.pub"}
	var (
		disabled *DisabledError
		draft    *DraftError
		refused  *SignatureRefusedError
		effects  *SecuredModeEffectError
		missing  *MissingSignatureError
		mismatch *SignatureMismatchError
		version  *UnsupportedVersionError
		nokey    *NoPublicKeyError
	)
	signedEffectful := sign(withStatus(effectful, "Draft"))
	cases := []struct {
		name    string
		policy  Policy
		src     string
		reach   Reach
		mech    bool
		targets []any // nil: runs
		signed  bool
	}{
		{"unsecured approved unsigned runs", Policy{}, withStatus(effectful, "Approved"), Composed, false, nil, false},
		{"unsecured draft direct runs", Policy{}, withStatus(effectful, "Draft"), Direct, false, nil, false},
		{"no status is draft", Policy{}, "t:\n    shell(argv=[\"date\"])\ndefault: t\n", Composed, false, []any{&draft}, false},
		{"unsecured effectful draft composed refused", Policy{}, withStatus(effectful, "Draft"), Composed, false, []any{&draft}, false},
		{"unsecured pure draft composed runs", Policy{}, withStatus(pure, "Draft"), Composed, false, nil, false},
		{"composed draft mechanical walk runs", Policy{}, withStatus(effectful, "Draft"), Composed, true, nil, false},
		{"disabled refused", Policy{}, withStatus(pure, "Disabled"), Direct, false, []any{&disabled}, false},
		{"secured disabled refused", secured, withStatus(pure, "Disabled"), Direct, false, []any{&disabled}, false},
		{"secured signed runs", secured, signedEffectful, Composed, false, nil, true},
		{"secured signed direct runs", secured, signedEffectful, Direct, false, nil, true},
		{"secured unsigned approved refused", secured, withStatus(pure, "Approved"), Direct, false, []any{&refused, &missing}, false},
		{"secured v2 token refused", secured, withStatus(pure, "Approved v2:abcd"), Composed, false, []any{&refused, &version}, false},
		{"secured edited after approval", secured, signedEffectful + "\n", Composed, false, []any{&refused, &mismatch}, false},
		{"secured other key", Policy{Secured: true, PublicKey: other}, signedEffectful, Composed, false, []any{&refused, &mismatch}, false},
		{"secured without key", Policy{Secured: true, KeyErr: os.ErrNotExist, KeyPath: "/k.pub"}, signedEffectful, Direct, false, []any{&refused, &nokey}, false},
		{"secured draft with effects refused", secured, withStatus(effectful, "Draft"), Direct, false, []any{&effects}, false},
		{"secured draft mechanical runs", secured, withStatus(effectful, "Draft"), Direct, true, nil, false},
		{"secured pure draft runs", secured, withStatus(pure, "Draft"), Direct, false, nil, false},
		{"secured effectful draft composed refused", secured, withStatus(effectful, "Draft"), Composed, false, []any{&draft}, false},
		{"secured pure draft composed runs", secured, withStatus(pure, "Draft"), Composed, false, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := subject(t, c.src, c.reach)
			s.Mechanical = c.mech
			v, err := Gate(c.policy, s)
			if c.targets == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if v.Signed != c.signed {
					t.Errorf("Signed = %v, want %v", v.Signed, c.signed)
				}
				return
			}
			if err == nil {
				t.Fatalf("ran; want %T", c.targets[0])
			}
			for _, target := range c.targets {
				if !errors.As(err, target) {
					t.Errorf("error %T %q is not %T", err, err, target)
				}
			}
			var r Refusal
			if !errors.As(err, &r) || r.Kind() == "" {
				t.Errorf("%T is not a Refusal with a kind", err)
			}
		})
	}
}

func TestSecuredModeEffectErrorListsEffects(t *testing.T) {
	pub, _ := testKey(0)
	_, err := Gate(Policy{Secured: true, PublicKey: pub}, subject(t, withStatus(effectful, "Draft"), Direct))
	if err == nil || !strings.Contains(err.Error(), "line 5: shell date") {
		t.Fatalf("error %v should list the shell op with its line", err)
	}
}
