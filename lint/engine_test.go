package lint

import (
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// applyFixes applies the first fix of every diagnostic.
func applyFixes(src []byte, ds ast.Diagnostics) string {
	var edits []ast.TextEdit
	for _, d := range ds {
		if len(d.Fixes) > 0 {
			edits = append(edits, d.Fixes[0].Edits...)
		}
	}
	out, _ := ast.ApplyEdits(src, edits)
	return string(out)
}

func TestFixes(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"legacy subst", "# Skill: a\n# Vars: X=1\n# Timeout: 9\nt:\n    emit(text=\"$(X)\")\ndefault: t\n", `emit(text="${X}")`},
		{"single equals", "# Skill: a\n# Vars: X=1\n# Timeout: 9\nt:\n    if ${X} = \"1\":\n        emit(text=\"y\")\ndefault: t\n", `if ${X} == "1":`},
		{"filter arg", "# Skill: a\n# Vars: X=1\n# Timeout: 9\nt:\n    emit(text=\"${X|head:5}\")\ndefault: t\n", `${X|head:\"5\"}`},
		{"filter name", "# Skill: a\n# Vars: X=1\n# Timeout: 9\nt:\n    emit(text=\"${X|URL}\")\ndefault: t\n", `${X|url}`},
		{"var typo", "# Skill: a\n# Vars: NAME=1\n# Timeout: 9\nt:\n    foreach I in ${NAMEE}:\n        emit(text=\"${I}\")\ndefault: t\n", `foreach I in ${NAME}:`},
		{"target typo", "# Skill: a\n# Timeout: 9\nhelper:\n    emit(text=\"h\")\nmain: helpr\n    emit(text=\"m\")\ndefault: main\n", "main: helper"},
		{"op typo", "# Skill: a\n# Timeout: 9\nt:\n    emitt(text=\"h\")\ndefault: t\n", `emit(text="h")`},
		{"colon kwarg", "# Skill: a\n# Timeout: 9\nt:\n    $ gh.search query:\"x\" -> R\ndefault: t\n", `$ gh.search query="x" -> R`},
		{"connector as tool", "# Skill: a\n# Timeout: 9\nt:\n    $ gh search query=\"x\" -> R\ndefault: t\n", `$ gh.search query="x" -> R`},
		{"header case", "# Skill: a\n# timeout: 9\nt:\n    emit(text=\"h\")\ndefault: t\n", "# Timeout: 9"},
		{"default", "# Skill: a\n# Timeout: 9\nt:\n    emit(text=\"h\")\n", "\ndefault: t\n"},
		{"unescaped", "# Skill: a\n# Autonomous: true\n# Vars: X=1\n# Timeout: 9\nt:\n    shell(command=\"echo ${X} | wc\", unsafe=true)\ndefault: t\n", `echo ${X|shell} | wc`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, ds := Check("a.skill.md", []byte(c.src), nil, Options{})
			got := applyFixes([]byte(c.src), ds)
			if !strings.Contains(got, c.want) {
				t.Fatalf("after fixes:\n%s\nwant it to contain %q", got, c.want)
			}
			_, _, after := Check("a.skill.md", []byte(got), nil, Options{})
			for _, d := range after {
				if d.Severity == ast.Error {
					t.Errorf("error left after the fix: %s: %s", d.Rule, d.Message)
				}
			}
		})
	}
}

func TestOptions(t *testing.T) {
	src := []byte("# Skill: a\n# Timeout: 9\nt:\n    emit(text=\"${X}\")\n    $ llm prompt=\"x\" max_tokens=3 -> R\ndefault: t\n")
	_, _, ds := Check("a.skill.md", src, nil, Options{
		Severity: map[string]ast.Severity{"undeclared-var": ast.Warning, "unknown-llm-arg": 0},
	})
	if got := rulesOf(ds); got != "undeclared-var" {
		t.Fatalf("rules = %s, want only undeclared-var", got)
	}
	if ds[0].Severity != ast.Warning || ds[0].Target != "t" {
		t.Errorf("got severity %s target %q, want warning in t", ds[0].Severity, ds[0].Target)
	}
	_, _, ds = Check("a.skill.md", src, nil, Options{Disable: []string{"undeclared-var", "unknown-llm-arg"}})
	if len(ds) != 0 {
		t.Errorf("disabled rules still reported: %s", rulesOf(ds))
	}
	// parser diagnostics go through the same overrides
	_, _, ds = Check("a.skill.md", []byte("# Skill: a\n# timeout: 9\n\nhi ${NOW}\n"), nil, Options{Disable: []string{"header-case"}})
	if len(ds) != 0 {
		t.Errorf("disabled parser rule still reported: %s", rulesOf(ds))
	}
}

func TestParseSuppression(t *testing.T) {
	cases := map[string]string{
		"# skillc:ignore a-b, c — why":  "a-b,c",
		"# skillc:ignore a-b c -- why":  "a-b,c",
		"#skillc:ignore x":              "x",
		"# skillc:ignoreX":              "!",
		"# something else":              "!",
		"# skillc:ignore — only reason": "",
	}
	for in, want := range cases {
		ids, ok := ParseSuppression(in)
		got := strings.Join(ids, ",")
		if !ok {
			got = "!"
		}
		if got != want {
			t.Errorf("ParseSuppression(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClosest(t *testing.T) {
	cases := []struct {
		name  string
		cands []string
		want  string
	}{
		{"URL", shippedFilters, "url"},
		{"trimm", shippedFilters, "trim"},
		{"zzzzzz", shippedFilters, ""},
		{"ab", []string{"ac", "ad"}, ""}, // ambiguous
		{"NAMEE", []string{"NAME", "TAG"}, "NAME"},
	}
	for _, c := range cases {
		if got := closest(c.name, c.cands); got != c.want {
			t.Errorf("closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestIndexSkills(t *testing.T) {
	idx, err := IndexSkills("../testdata/lint/duplicate-skill-name/skills")
	if err != nil {
		t.Fatal(err)
	}
	// skills/dup/classifier.skill.md is in a subdirectory, which the
	// runtime's flat filesystem store does not read either.
	si, ok := idx.Lookup("classifier")
	if !ok || si.Status != "Approved" || strings.Join(si.Returns, ",") != "VERDICT,SCORE" || len(si.Files) != 1 {
		t.Fatalf("classifier = %+v, %v", si, ok)
	}
	if top, _ := IndexSkills("../testdata/lint/duplicate-skill-name"); len(top) != 1 {
		t.Errorf("the parent directory indexes %d skills, want only clean.skill.md", len(top))
	}
	if _, err := IndexSkills("/nonexistent/dir"); err == nil {
		t.Error("IndexSkills of a missing dir: want an error")
	}
}

// TestStop pins Options.Stop: asked once before each enabled rule, the run
// ends at the first true answer, and a Stop that never answers true
// changes nothing.
func TestStop(t *testing.T) {
	src := []byte("# Skill: s\n# Description: Use when testing stops.\n# Status: Draft\n\nrun:\n    emit(text=\"${NOPE}\")\n\ndefault: run\n")
	_, _, want := Check("s.skill.md", src, nil, Options{})
	asked := 0
	_, _, all := Check("s.skill.md", src, nil, Options{Stop: func() bool { asked++; return false }})
	if len(all) != len(want) || len(want) == 0 {
		t.Fatalf("with a Stop that never answers true: %d findings, without: %d", len(all), len(want))
	}
	enabled := 0
	var o Options
	for _, r := range o.registry().runnable {
		if _, on := o.severity(r.ID, r.Severity); on {
			enabled++
		}
	}
	if asked != enabled {
		t.Errorf("Stop asked %d times, want once per enabled rule (%d)", asked, enabled)
	}
	asked = 0
	_, _, none := Check("s.skill.md", src, nil, Options{Stop: func() bool { asked++; return true }})
	if asked != 1 {
		t.Errorf("Stop asked %d times after answering true, want 1", asked)
	}
	for _, d := range none {
		if d.Rule == "undeclared-var" {
			t.Errorf("a stopped run reported %s", d)
		}
	}
}
