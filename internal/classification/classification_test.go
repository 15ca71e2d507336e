package classification_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/syntax"
)

func parse(t testing.TB, header string) (*ast.File, ast.Diagnostics) {
	t.Helper()
	src := "# Skill: s\n# Classification: " + header + "\n# Timeout: 30\n\nmain:\n    emit(text=\"x\")\n\ndefault: main\n"
	return syntax.Parse("s.skill.md", []byte(src))
}

// TestHeaderRoundTrip parses valid headers into the one struct.
func TestHeaderRoundTrip(t *testing.T) {
	cases := []struct {
		header string
		want   classification.Classification
	}{
		{"role=procedure invocation=direct effect_mode=read_only", classification.Classification{Role: "procedure", Invocation: "direct", EffectMode: "read_only"}},
		{"attach_targets=run,output role=sidecar invocation=attach effect_mode=control_signal", classification.Classification{Role: "sidecar", Invocation: "attach", EffectMode: "control_signal", AttachTargets: []string{"run", "output"}}},
		{"Role=Utility  invocation=BOTH effect_mode=enrich attach_targets=artifact", classification.Classification{Role: "utility", Invocation: "both", EffectMode: "enrich", AttachTargets: []string{"artifact"}}},
	}
	for _, c := range cases {
		f, ds := parse(t, c.header)
		if ds.HasErrors() {
			t.Fatalf("%q: %v", c.header, ds)
		}
		got, probs := classification.Of(f)
		if len(probs) != 0 || got.String() != c.want.String() {
			t.Errorf("%q: got %s %v, want %s", c.header, got, probs, c.want.String())
		}
	}
}

// TestHeaderProblems checks each rule's message and that its range covers
// exactly the offending text.
func TestHeaderProblems(t *testing.T) {
	cases := []struct {
		header, code, at, msg string
	}{
		{"role=sidecr invocation=attach effect_mode=read_only attach_targets=run", classification.CodeValue, "sidecr", `did you mean "sidecar"`},
		{"role=procedure invocation=direct", classification.CodeValue, "", "no effect_mode"},
		{"role=procedure role=utility invocation=direct effect_mode=enrich", classification.CodeValue, "role", "given twice"},
		{"role=procedure invocation=direct effect_mode=enrich colour=blue", classification.CodeValue, "colour", "unknown classification key"},
		{"role=sidecar invocation=direct effect_mode=read_only", classification.CodeSidecarDirect, "direct", "cannot be direct"},
		{"role=utility invocation=attach effect_mode=read_only", classification.CodeAttachTargets, "attach", "needs attach_targets"},
		{"role=utility invocation=both effect_mode=read_only attach_targets=run,run", classification.CodeAttachTargets, "run", "listed twice"},
		{"role=utility invocation=both effect_mode=read_only attach_targets=run,trace", classification.CodeAttachTargets, "trace", "unknown classification attach target"},
		{"role=utility invocation=direct effect_mode=read_only attach_targets=run", classification.CodeDirectTargets, "run", "takes no attach_targets"},
	}
	for _, c := range cases {
		f, ds := parse(t, c.header)
		if ds.HasErrors() {
			t.Fatalf("%q: parse errors %v", c.header, ds)
		}
		_, probs := classification.Of(f)
		found := false
		for _, p := range probs {
			if p.Rule != c.code || !strings.Contains(p.Message, c.msg) {
				continue
			}
			found = true
			text := string(f.Src[p.Range.From.Offset():p.Range.To.Offset()])
			if c.at != "" && text != c.at {
				t.Errorf("%q: range covers %q, want %q", c.header, text, c.at)
			}
		}
		if !found {
			t.Errorf("%q: no %s problem with %q in %v", c.header, c.code, c.msg, probs)
		}
	}
}

// TestHeaderSyntaxErrors: malformed pairs are parse errors at the token.
func TestHeaderSyntaxErrors(t *testing.T) {
	for header, want := range map[string]string{
		"":                      "needs key=value pairs",
		"role procedure":        `"role" is not key=value`,
		"role= invocation=both": "role= has no value",
		"attach_targets=run,,x": "empty item",
		"=procedure":            `"=procedure" is not key=value`,
	} {
		_, ds := parse(t, header)
		var msgs []string
		for _, d := range ds {
			msgs = append(msgs, d.Message)
		}
		if !ds.HasErrors() || !strings.Contains(strings.Join(msgs, "\n"), want) {
			t.Errorf("%q: %v, want an error containing %q", header, msgs, want)
		}
	}
}

// TestClassificationIsSigned: the approval signing input covers
// # Classification: (a change needs a new review) but not # Tags:.
func TestClassificationIsSigned(t *testing.T) {
	base := "# Skill: s\n# Tags: a\n# Classification: role=procedure invocation=direct effect_mode=read_only\n\nmain:\n    emit(text=\"x\")\n\ndefault: main\n"
	retag := strings.Replace(base, "# Tags: a", "# Tags: b, c", 1)
	reclass := strings.Replace(base, "effect_mode=read_only", "effect_mode=enrich", 1)
	if approval.ContentHash([]byte(base)) != approval.ContentHash([]byte(retag)) {
		t.Errorf("changing # Tags: changed the signing input")
	}
	if approval.ContentHash([]byte(base)) == approval.ContentHash([]byte(reclass)) {
		t.Errorf("changing # Classification: did not change the signing input")
	}
}

// FuzzClassificationHeader parses arbitrary header values: no panic, every
// problem range inside the source.
func FuzzClassificationHeader(f *testing.F) {
	for _, s := range []string{"role=procedure invocation=direct effect_mode=read_only", "attach_targets=run,output role=sidecar", "role=", "=", ",,,", "role=sidecar invocation=direct", "é=ü attach_targets=,"} {
		f.Add(s)
	}
	if files, _ := filepath.Glob("../../testdata/corpus/adversarial/classification-*/*.skill.md"); len(files) > 0 {
		for _, p := range files {
			data, _ := os.ReadFile(p)
			for _, line := range strings.Split(string(data), "\n") {
				if v, ok := strings.CutPrefix(line, "# Classification: "); ok {
					f.Add(v)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, header string) {
		if strings.ContainsAny(header, "\n\r") {
			return
		}
		fl, _ := parse(t, header)
		_, probs := classification.Of(fl)
		for _, p := range probs {
			if p.Range.From.Offset() < 0 || p.Range.To.Offset() > len(fl.Src) || p.Range.From.Offset() > p.Range.To.Offset() {
				t.Fatalf("%q: range %v outside the source", header, p.Range)
			}
			if p.Message == "" {
				t.Fatalf("%q: empty message", header)
			}
		}
	})
}
