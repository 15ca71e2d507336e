package host_test

import (
	"context"
	"crypto/ed25519"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/syntax"
)

// trivialSigned is a signed one-target skill and the policy that verifies
// it.
func trivialSigned(b *testing.B) ([]byte, approval.Policy) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	src := []byte("# Skill: trivial\n# Status: Draft\n# Timeout: 30\n\nt:\n    emit(text=\"hi\")\ndefault: t\n")
	signed := approval.Stamp(src, "Approved "+approval.Sign(priv, src))
	return signed, approval.Policy{Secured: true, PublicKey: approval.PublicKeyOf(priv)}
}

// BenchmarkTrivialRun is the baseline: parse, check and run a trivial
// skill (what skillc run does after its checks).
func BenchmarkTrivialRun(b *testing.B) {
	src, _ := trivialSigned(b)
	r := &eval.Runner{Load: host.Load}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res, err := host.RunSource(ctx, r, "trivial.skill.md", src, nil); err != nil || res.Failed() {
			b.Fatal(err, res.Errors)
		}
	}
}

// BenchmarkTrivialRunSecured is the same run through the root gate a host
// runner installs (Runner.Admit in secured mode): footprint and Ed25519
// verification of the signed skill, then the run.
func BenchmarkTrivialRunSecured(b *testing.B) {
	src, policy := trivialSigned(b)
	r := &eval.Runner{Load: host.Load, Admit: host.Admit(policy, approval.Direct)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res, err := host.RunSource(ctx, r, "trivial.skill.md", src, nil); err != nil || res.Failed() {
			b.Fatal(err, res.Errors)
		}
	}
}

// BenchmarkGateVerify is the gate alone on a parsed skill: canonical
// input, signature verification and footprint.
func BenchmarkGateVerify(b *testing.B) {
	src, policy := trivialSigned(b)
	f, _ := syntax.Parse("trivial.skill.md", src)
	s := approval.Subject{Name: "trivial", File: f, Info: check.Check(f)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := approval.Gate(policy, s); err != nil {
			b.Fatal(err)
		}
	}
}
