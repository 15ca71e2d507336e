package rulesets_test

import (
	"testing"

	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/classify"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/lint/signature"
	"github.com/skillscript/skillc/lint/skillmd"
)

// TestAllComposesEverySet checks that All holds every rule of every set
// once, in set order, and that a registry of the skillscript set alone
// knows none of the others.
func TestAllComposesEverySet(t *testing.T) {
	var want []string
	for _, set := range [][]*lint.Rule{lint.Skillscript(), signature.Rules(), classify.Rules(), skillmd.Rules()} {
		for _, r := range set {
			want = append(want, r.ID)
		}
	}
	got := rulesets.All().IDs()
	if len(got) != len(want) {
		t.Fatalf("All has %d rules, the sets %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("rule %d: All has %s, the sets give %s", i, got[i], want[i])
		}
	}
	alone := lint.NewRegistry(lint.Skillscript())
	for _, id := range []string{"classification-footprint", "stale-signature", "skillmd-unknown-key"} {
		if rulesets.All().Lookup(id) == nil {
			t.Errorf("All does not know %s", id)
		}
		if alone.Lookup(id) != nil {
			t.Errorf("the skillscript set holds %s", id)
		}
	}
}

// TestClassificationRulesNeedTheirSet lints a skill whose classification
// contradicts its footprint: the classification rule fires with the
// composed registry and not with the skillscript set alone.
func TestClassificationRulesNeedTheirSet(t *testing.T) {
	src := []byte("# Skill: sync\n# Classification: role=procedure invocation=direct effect_mode=read_only\n\nmain:\n    file_write(path=\"out.txt\", content=\"x\")\n\ndefault: main\n")
	count := func(opts lint.Options) int {
		_, _, ds := lint.Check("sync.skill.md", src, nil, opts)
		n := 0
		for _, d := range ds {
			if d.Rule == "classification-footprint" {
				n++
			}
		}
		return n
	}
	if n := count(lint.Options{Rules: rulesets.All()}); n != 1 {
		t.Errorf("with rulesets.All: %d classification-footprint findings, want 1", n)
	}
	if n := count(lint.Options{}); n != 0 {
		t.Errorf("with the skillscript set alone: %d classification-footprint findings, want 0", n)
	}
}

// TestDuplicateIDPanics checks that composing a set twice is refused.
func TestDuplicateIDPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("NewRegistry accepted the signature set twice")
		}
	}()
	lint.NewRegistry(signature.Rules(), signature.Rules())
}

// BenchmarkAssemble measures what All pays once per process: building
// every rule set (with its documentation) and composing the registry.
func BenchmarkAssemble(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		lint.NewRegistry(lint.Skillscript(), signature.Rules(), classify.Rules(), skillmd.Rules())
	}
}
