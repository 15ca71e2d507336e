package highlight

import (
	"testing"

	"github.com/skillscript/skillc/syntax"
)

// TestTokens classifies a small skill and checks the text each class
// covers, and that tokens come sorted and never overlap.
func TestTokens(t *testing.T) {
	src := "# Skill: demo\n# Vars: WHO=\"x\"\n\nrun:\n    $set N = 3\n    $ github.create_issue title=\"${WHO|trim}\" -> R  # note\n    emit(text=\"${R.url}\")\ndefault: run\n"
	f, diags := syntax.Parse("demo.skill.md", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	toks := Tokens(f)
	got := map[string][]string{}
	for i, tk := range toks {
		if i > 0 && tk.Range.From < toks[i-1].Range.To {
			t.Errorf("token %d overlaps the previous one", i)
		}
		got[tk.Kind.String()] = append(got[tk.Kind.String()], src[tk.Range.From.Offset():tk.Range.To.Offset()])
	}
	for kind, want := range map[string][]string{
		"macro":     {"# Skill", "# Vars"},
		"namespace": {"github"},
		"method":    {"create_issue"},
		"function":  {"trim", "emit"},
		"number":    {"3"},
		"comment":   {"# note"},
		"parameter": {"title", "text"},
		"property":  {".url"}, // the path segment with its dot
	} {
		for _, w := range want {
			if !contains(got[kind], w) {
				t.Errorf("%s tokens %q lack %q", kind, got[kind], w)
			}
		}
	}
	if Tokens(nil) != nil {
		t.Error("Tokens(nil) is not empty")
	}
	if Kind(99).String() != "unknown" || len(Names()) != int(String)+1 {
		t.Error("kind names out of step with the kinds")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestEscapeTokens: the editor colours what the evaluator substitutes
// (decision V3): "\${X}" is a backslash and a substitution of X, "$${Y}"
// is literal text, the same in a string and in the template.
func TestEscapeTokens(t *testing.T) {
	src := "# Skill: esc\n# Vars: X=\"a\", Y=\"b\"\n\nrun:\n    emit(text=\"1 \\${X} 2 $${Y}\")\n\nT \\${X} $${Y}\n\ndefault: run\n"
	f, diags := syntax.Parse("esc.skill.md", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	var vars []string
	for _, tk := range Tokens(f) {
		if tk.Kind == Variable {
			vars = append(vars, src[tk.Range.From.Offset():tk.Range.To.Offset()])
		}
	}
	// X in the string and in the template; Y never (the # Vars: names are
	// declarations and count too)
	nX, nY := 0, 0
	for _, v := range vars {
		switch v {
		case "X":
			nX++
		case "Y":
			nY++
		}
	}
	if nX != 3 || nY != 1 {
		t.Fatalf("variable tokens %q: want X three times (declaration, string, template) and Y once (declaration)", vars)
	}
}
