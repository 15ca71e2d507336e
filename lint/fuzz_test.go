package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

// FuzzLint checks that parse + check + lint never panics, that every
// diagnostic range lies inside the source, and that every fix applies.
func FuzzLint(f *testing.F) {
	patterns := []string{"../testdata/lint/*/*.skill.md", "../testdata/lint/*/*/*.skill.md", "../testdata/corpus/*/*.skill.md", "../testdata/corpus/adversarial/*/*.skill.md"}
	if shared, ok := testcorpus.SharedIfPresent(f, "corpus"); ok {
		patterns = append(patterns, shared+"/*/*.skill.md", shared+"/adversarial/*/*.skill.md")
	}
	for _, pattern := range patterns {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte("t:\n    $ x y z\n    emit(${A|b:c}\n"))
	ctx := fuzzContext()
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, c := range []*Context{nil, ctx} {
			_, _, ds := Check("fuzz.skill.md", src, c, Options{ReportUnusedSuppressions: true})
			for _, d := range ds {
				if !inside(d.Range, len(src)) {
					t.Fatalf("%s: range %v outside a %d-byte source", d.Rule, d.Range, len(src))
				}
				for _, fx := range d.Fixes {
					for _, e := range fx.Edits {
						if !inside(e.Range, len(src)) {
							t.Fatalf("%s: fix range %v outside the source", d.Rule, e.Range)
						}
					}
				}
			}
		}
	})
}

func inside(r ast.Range, n int) bool {
	return r.From.IsValid() && r.To >= r.From && r.To.Offset() <= n
}

// fuzzContext is a context with every piece present.
func fuzzContext() *Context {
	return &Context{
		ConnectorsKnown: true,
		Connectors: map[string]*Connector{"gh": {Name: "gh", AllowedTools: []string{"search"}, ToolsKnown: true,
			Tools: map[string]*Tool{"search": {Name: "search", Schema: []byte(`{"properties":{"q":{}},"required":["q"]}`)}}}},
		Substrates:  map[string]bool{"local_model": true},
		ModelsKnown: true, Models: []string{"qwen"},
		AgentConnectorKnown: true, ShellAllowlistKnown: true, ShellAllowlist: []string{"curl"},
		UnsafeShellKnown: true, SkillsKnown: true,
		Skills: MapIndex{"child": {Name: "child", Status: "Disabled", Returns: []string{"A"}, File: "x", Files: []string{"x", "y"}}},
	}
}

func TestFuzzSeedsClean(t *testing.T) {
	// a smoke run of the fuzz body over odd inputs, so that plain go test
	// exercises it too
	for _, src := range []string{"", "\x00", "t:\n\t\n", "${", "$(", "{{secret.", "# Skill:\n# Vars: =,\n", strings.Repeat("a:\n    b:\n", 50)} {
		for _, c := range []*Context{nil, fuzzContext()} {
			Check("x.skill.md", []byte(src), c, Options{ReportUnusedSuppressions: true})
		}
	}
}
