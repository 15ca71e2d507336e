package lang_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/lint"
)

var update = flag.Bool("update", false, "rewrite generated files (docs/language.md)")

const languageDoc = "../../../docs/language.md"

// TestLanguageDoc fails when docs/language.md is not what the catalog
// generates; regenerate with go test ./internal/leaf/lang -run TestLanguageDoc -update.
func TestLanguageDoc(t *testing.T) {
	var b bytes.Buffer
	if err := lang.MarkdownReference(&b); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(languageDoc, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(languageDoc)
	if err != nil {
		t.Fatalf("%v (generate it with go test ./internal/leaf/lang -run TestLanguageDoc -update)", err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("%s is stale: regenerate with go test ./internal/leaf/lang -run TestLanguageDoc -update", languageDoc)
	}
}

// TestLanguageDocAnchors checks that every anchor the editor links to
// (lang.OpAnchor, FilterAnchor, HeaderAnchor) is in the reference once,
// and that no two entries share an anchor.
func TestLanguageDocAnchors(t *testing.T) {
	var b bytes.Buffer
	if err := lang.MarkdownReference(&b); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, m := range regexp.MustCompile(`<a id="([^"]+)"></a>`).FindAllStringSubmatch(b.String(), -1) {
		count[m[1]]++
	}
	for a, n := range count {
		if n != 1 {
			t.Errorf("anchor %q appears %d times", a, n)
		}
	}
	var want []string
	for _, o := range lang.Ops() {
		want = append(want, lang.OpAnchor(o.Name))
	}
	for _, d := range lang.FilterDocs() {
		want = append(want, lang.FilterAnchor(d.Name))
	}
	for _, h := range lang.Headers() {
		want = append(want, lang.HeaderAnchor(h.Kind))
	}
	for _, a := range want {
		if count[a] != 1 {
			t.Errorf("the reference has no anchor %q", a)
		}
	}
	for _, a := range []string{"op-emit", "op-execute-skill", "filter-head", "header-skill", "header-event-type"} {
		if count[a] != 1 {
			t.Errorf("stable anchor %q is missing", a)
		}
	}
}

// sample is one runnable example of the reference.
type sample struct{ name, src string }

// samples returns every runnable sample of the catalog; an entry that is
// not retired must have one, a retired entry none.
func samples(t *testing.T) []sample {
	t.Helper()
	var out []sample
	add := func(name, src string, retired bool) {
		switch {
		case retired && src != "":
			t.Errorf("%s is retired but has a sample", name)
		case !retired && src == "":
			t.Errorf("%s has no sample", name)
		case src != "":
			out = append(out, sample{name, src})
		}
	}
	for _, h := range lang.Headers() {
		add("header "+h.Kind.String(), h.Sample, h.Retired)
	}
	for _, o := range lang.Ops() {
		add("op "+o.Name, o.Sample, false)
	}
	for _, s := range lang.Statements() {
		add("statement "+s.Label, s.Sample, false)
	}
	for _, group := range [][]lang.Form{lang.Conditions(), lang.Substitutions(), lang.OutputKinds(), lang.Triggers(), lang.Structure()} {
		for _, f := range group {
			add("form "+f.Anchor, f.Sample, f.Retired)
		}
	}
	add("ambient references", lang.AmbientSample(), false)
	for _, d := range lang.FilterDocs() {
		src, _ := lang.FilterSample(d)
		add("filter "+d.Name, src, false)
	}
	return out
}

// TestReferenceSamplesLintClean: every sample of docs/language.md parses
// and lints with no diagnostic at all, and each header sample uses its
// header.
func TestReferenceSamplesLintClean(t *testing.T) {
	all := samples(t)
	if len(all) < 60 {
		t.Fatalf("only %d samples", len(all))
	}
	// The samples call each other (execute_skill, inline, $ skill_read):
	// saved in one folder, that folder is the skill store skillc run
	// uses, so they are checked that way.
	dir := t.TempDir()
	paths := map[string]string{}
	for i, s := range all {
		paths[s.name] = filepath.Join(dir, fmt.Sprintf("sample%03d.skill.md", i))
		if err := os.WriteFile(paths[s.name], []byte(s.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx, err := lint.IndexSkills(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		ctx := &lint.Context{FilePath: paths[s.name], SkillsKnown: true, Skills: idx, SkillsImplicit: true}
		_, _, ds := lint.Check(paths[s.name], []byte(s.src), ctx, lint.Options{ReportUnusedSuppressions: true})
		for _, d := range ds {
			t.Errorf("%s: %v (at %v)\n%s", s.name, d, d.Range, s.src)
		}
	}
	for _, h := range lang.Headers() {
		if !h.Retired && !strings.Contains(h.Sample, "# "+h.Kind.String()+":") {
			t.Errorf("the sample of # %s: does not use it:\n%s", h.Kind, h.Sample)
		}
	}
	for _, o := range lang.Ops() {
		if !strings.Contains(o.Sample, o.Name) {
			t.Errorf("the sample of %s does not use it", o.Name)
		}
	}
}

// TestFilterExamplesRun runs each filter's sample skill through the
// evaluator with the documented input and checks the documented output:
// the Input → Output rows of docs/language.md (and of the editor's hover)
// are what the filter does.
func TestFilterExamplesRun(t *testing.T) {
	for _, d := range lang.FilterDocs() {
		t.Run(d.Name, func(t *testing.T) {
			src, inputs := lang.FilterSample(d)
			f, info, ds := lint.Check("try-"+d.Name+".skill.md", []byte(src), nil, lint.Options{})
			if ds.HasErrors() {
				t.Fatalf("sample does not check: %v", ds)
			}
			in := map[string]any{}
			for k, v := range inputs {
				in[k] = v
			}
			res, err := (&eval.Runner{}).Run(context.Background(), f, info, in)
			if err != nil {
				t.Fatal(err)
			}
			if res.Failed() {
				t.Fatalf("run failed: %+v", res.Errors)
			}
			if got := strings.TrimSuffix(res.Outputs.Text, "\n"); got != d.Output {
				t.Errorf("%s with %q gives %q, the catalog says %q", d.Example, d.Input, got, d.Output)
			}
		})
	}
}

// TestFilterSampleCommand: the documented command line carries the
// documented input.
func TestFilterSampleCommand(t *testing.T) {
	var b bytes.Buffer
	if err := lang.MarkdownReference(&b); err != nil {
		t.Fatal(err)
	}
	for _, d := range lang.FilterDocs() {
		if want := fmt.Sprintf("skillc run try-%s.skill.md --var ", d.Name); !strings.Contains(b.String(), want) {
			t.Errorf("no run command for |%s", d.Name)
		}
	}
}

// TestEffectFreeSamplesRun runs the samples that need nothing wired (the
// conditions, substitutions, statements and structure forms with no
// program to start) through the evaluator: each runs to completion and
// emits something.
func TestEffectFreeSamplesRun(t *testing.T) {
	var srcs []sample
	for _, group := range [][]lang.Form{lang.Conditions(), lang.Substitutions(), lang.Structure()} {
		for _, f := range group {
			srcs = append(srcs, sample{f.Anchor, f.Sample})
		}
	}
	for _, s := range lang.Statements() {
		srcs = append(srcs, sample{s.Label, s.Sample})
	}
	ran := 0
	for _, s := range srcs {
		if s.src == "" || strings.Contains(s.src, "shell(") || strings.Contains(s.src, "# Requires:") {
			continue
		}
		f, info, ds := lint.Check(s.name+".skill.md", []byte(s.src), nil, lint.Options{})
		if ds.HasErrors() {
			t.Fatalf("%s: %v", s.name, ds)
		}
		res, err := (&eval.Runner{}).Run(context.Background(), f, info, nil)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if res.Failed() || strings.TrimSpace(res.Outputs.Text) == "" {
			t.Errorf("%s: status %s, output %q, errors %+v", s.name, res.Status, res.Outputs.Text, res.Errors)
		}
		ran++
	}
	if ran < 12 {
		t.Errorf("only %d samples ran", ran)
	}
}
