package lint_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/syntax"
)

// reuseSnippets are what the edits inside one target insert: text that
// changes nothing outside it, references, bindings other targets may use
// (with and without a new line), loops whose line the undeclared-var hint
// names, inlined skills, secrets, credentials, malformed substitutions,
// suppressions.
var reuseSnippets = []string{
	"x", " ", "\"", "${ZQ9}", "${ZQ9", "${A0}", "${ZQ9|fallback:\"d\"}", "{{secret.API_KEY}}", "{{secret.${ZQ9}}}",
	" api_key=\"sk-abcdef123\"", "Bearer abcdefghijkl", "\n    $set ZQ9 = \"v\"", "\n    emit(text=\"x\") -> ZQ9",
	"\n    foreach ZQ9 in [1]:\n        emit(text=\"${ZQ9}\")", "\n    inline(skill=\"helper\")",
	"\n    shell(command=\"curl -H 'X: {{secret.TOKEN}}'\")", "\n    # skillc:ignore undeclared-var", "\n",
	"${R}", "${ZQ9|upperr}", "${ZQ9|default}", "inline(skill=\"helpr\")", "emit(text=\"x\", colour=1)", "rm(path=\"x\")",
	"approved=${ZQ9}", "$ conn.tool a=1 b", "shell(argv=[1])", "\n    needs: zq", " zq",
}

// reBinds matches the name a statement binds.
var reBinds = regexp.MustCompile(`(\$set |-> |foreach )([A-Za-z_][A-Za-z0-9_]*)`)

// targetOf returns the range of the one target of f holding [from, to),
// or ok false.
func targetOf(f *ast.File, from, to int) (start, end int, ok bool) {
	for _, t := range f.Targets {
		s, e := t.Pos().Offset(), t.End().Offset()
		if s <= from && to <= e && s < from {
			return s, e, true
		}
	}
	return 0, 0, false
}

// targetEndAt returns the end of the target of f that starts at start.
func targetEndAt(f *ast.File, start int) (int, bool) {
	for _, t := range f.Targets {
		if t.Pos().Offset() == start {
			return t.End().Offset(), true
		}
	}
	return 0, false
}

// editedSkills returns the testdata skills the edit-equivalence tests
// edit, and the lint context they are checked in (one known data skill).
func editedSkills(t *testing.T) ([]string, *lint.Context) {
	t.Helper()
	var paths []string
	for _, root := range []string{"../testdata/examples", "../testdata/lint", "../testdata/corpus", "../testdata/lsp"} {
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".skill.md") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) == 0 {
		t.Fatal("no skills")
	}
	return paths, &lint.Context{SkillsKnown: true, Skills: lint.MapIndex{
		"helper": {Name: "helper", Type: "data", Returns: []string{"R"}, File: "helper.skill.md"}}}
}

// TestReuseMatchesWholeRun edits real skills inside one target at a time,
// lints each text with the previous run's findings taken over
// (Options.Reuse, chained from edit to edit) and compares the findings
// with a whole run: equal every time.
func TestReuseMatchesWholeRun(t *testing.T) {
	paths, ctx := editedSkills(t)
	var runs, took int
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 25))
		text := string(src)
		f, parsed := syntax.Parse(p, []byte(text))
		reuse := &lint.Reuse{}
		lint.CheckParsed(f, copyDiags(parsed), ctx, lint.Options{Reuse: reuse})
		kept := reuse.Next
		for step := 0; step < 12; step++ {
			from, to, ins, ok := reuseEdit(r, f, text)
			if !ok {
				break
			}
			next := text[:from] + ins + text[to:]
			nf, nparsed := syntax.Parse(p, []byte(next))
			ts, te, ok1 := targetOf(f, from, to)
			delta := len(ins) - (to - from)
			if ok1 && r.IntN(4) == 0 {
				// a second edit of the same target before the next run
				// (the language server's analysis of the first was
				// superseded): the run takes over across both
				if f2, t2, i2, ok := reuseEdit(r, nf, next); ok {
					if s2, e2, ok := targetOf(nf, f2, t2); ok && s2 == ts && e2 == te+delta {
						next = next[:f2] + i2 + next[t2:]
						nf, nparsed = syntax.Parse(p, []byte(next))
						delta += len(i2) - (t2 - f2)
						from, to, ins = ts, te, next[ts:te+delta] // for the message
					}
				}
			}
			reuse = &lint.Reuse{}
			if ne, ok2 := targetEndAt(nf, ts); ok1 && ok2 && ne == te+delta && len(nf.Targets) == len(f.Targets) {
				reuse = &lint.Reuse{Prev: kept, From: ts, OldTo: te, NewTo: ne}
			}
			_, got := lint.CheckParsed(nf, copyDiags(nparsed), ctx, lint.Options{Reuse: reuse})
			_, want := lint.CheckParsed(nf, copyDiags(nparsed), ctx, lint.Options{})
			runs++
			if reuse.TookOver {
				took++
			}
			if g, w := diagJSON(got), diagJSON(want); g != w {
				t.Fatalf("%s step %d (edit [%d,%d) -> %q, took over %v):\ngot:  %s\nwant: %s\ntext:\n%s",
					p, step, from, to, ins, reuse.TookOver, g, w, next)
			}
			text, f, kept = next, nf, reuse.Next
			if r.IntN(5) == 0 {
				// the next run takes over from a run of the same text that
				// stopped early (a superseded analysis): the rules it ran
				// kept their findings, the others none
				n, stopAt := 0, r.IntN(40)
				stopped := &lint.Reuse{Prev: reuse.Prev, From: reuse.From, OldTo: reuse.OldTo, NewTo: reuse.NewTo}
				lint.CheckParsed(nf, copyDiags(nparsed), ctx, lint.Options{Reuse: stopped, Stop: func() bool { n++; return n > stopAt }})
				kept = stopped.Next
			}
		}
	}
	t.Logf("%d runs after an edit, %d took over the local rules' findings", runs, took)
	if took < runs/4 {
		t.Errorf("only %d of %d runs took over findings", took, runs)
	}
}

// reuseEdit returns a random edit inside the body of one target of f
// (text): an insertion, a deletion on one line, or a binding renamed.
func reuseEdit(r *rand.Rand, f *ast.File, text string) (from, to int, ins string, ok bool) {
	if len(f.Targets) == 0 {
		return 0, 0, "", false
	}
	tg := f.Targets[r.IntN(len(f.Targets))]
	s, e := tg.Pos().Offset(), tg.End().Offset()
	body := s + strings.IndexByte(text[s:e], '\n') + 1
	if body <= s || body >= e {
		return 0, 0, "", false
	}
	at := body + r.IntN(e-body)
	switch r.IntN(4) {
	case 0: // rename what a statement binds, or bind ZQ9
		if m := reBinds.FindStringSubmatchIndex(text[at:e]); m != nil {
			if r.IntN(2) == 0 {
				return at + m[4] + 1, at + m[4] + 1, "x", true
			}
			return at + m[4], at + m[5], "ZQ9", true
		}
		return at, at, "x", true
	case 1: // delete up to the end of the line
		end := at + r.IntN(12)
		if nl := strings.IndexByte(text[at:], '\n'); nl >= 0 {
			end = min(end, at+nl)
		}
		return at, min(end, e), "", true
	}
	return at, at, reuseSnippets[r.IntN(len(reuseSnippets))], true
}

// copyDiags returns copies of ds (a run sets severities on the parser's).
func copyDiags(ds ast.Diagnostics) ast.Diagnostics {
	out := make(ast.Diagnostics, len(ds))
	for i, d := range ds {
		cp := *d
		out[i] = &cp
	}
	return out
}

// diagJSON renders findings for comparison, in order.
func diagJSON(ds ast.Diagnostics) string {
	b, _ := json.Marshal(ds)
	return string(b)
}

// TestReuseSeesOtherTargets covers what a local rule reads of the other
// targets, each by an edit of one target that keeps its lines and changes
// a finding in another: the findings equal a whole run's, whether or not
// the run took over the previous ones.
func TestReuseSeesOtherTargets(t *testing.T) {
	ctx := &lint.Context{SkillsKnown: true, Skills: lint.MapIndex{
		"helper": {Name: "helper", Type: "data", Returns: []string{"R"}, File: "helper.skill.md"}}}
	for _, c := range []struct{ name, text, old, new string }{
		{"binding renamed", "t1:\n    emit(text=\"${A}\")\n\nt2:\n    $set A = \"v\"\n\ndefault: t1\n", "$set A", "$set B"},
		{"binding added", "t1:\n    emit(text=\"${B}\")\n\nt2:\n    $set A = \"v\"\n\ndefault: t1\n", "$set A", "$set B"},
		{"loop line moved", "t1:\n    emit(text=\"${ZQ9}\")\n\nt2:\n    emit(text=\"x\")\n    emit(text=\"y\")\n\nt3:\n    foreach ZQ9 in [1]:\n        emit(text=\"${ZQ9}\")\n\ndefault: t1\n",
			"emit(text=\"y\")", "emit(text=\"y\")\n"},
		{"loop in the target moved", "t1:\n    emit(text=\"${ZQ9}\")\n\nt2:\n    emit(text=\"x\")\n    foreach ZQ9 in [1]:\n        emit(text=\"${ZQ9}\")\n    emit(text=\"y\")\n\ndefault: t1\n",
			"    emit(text=\"x\")\n    foreach ZQ9 in [1]:\n        emit(text=\"${ZQ9}\")\n", "    foreach ZQ9 in [1]:\n        emit(text=\"${ZQ9}\")\n    emit(text=\"x\")\n"},
		{"inline added", "t1:\n    emit(text=\"${R}\")\n\nt2:\n    emit(text=\"x\")\n\ndefault: t1\n", "emit(text=\"x\")", "inline(skill=\"helper\")"},
		{"needs added", "t1:\n    emit(text=\"${A}\")\n\nt2:\n    emit(text=\"x\")\n\nt3:\n    $set A = \"v\"\n\ndefault: t1\n", "t2:", "t2: t3"},
		{"target renamed", "t1:\n    emit(text=\"${t3.output}\")\n\nt2:\n    emit(text=\"x\")\n\nt3:\n    emit(text=\"z\")\n\ndefault: t1\n", "t3:", "t4:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			at := strings.Index(c.text, c.old)
			if at < 0 {
				t.Fatal("no", c.old)
			}
			next := c.text[:at] + c.new + c.text[at+len(c.old):]
			f, parsed := syntax.Parse("s.skill.md", []byte(c.text))
			reuse := &lint.Reuse{}
			lint.CheckParsed(f, copyDiags(parsed), ctx, lint.Options{Reuse: reuse})
			nf, nparsed := syntax.Parse("s.skill.md", []byte(next))
			ts, te, ok := targetOf(f, at, at+len(c.old))
			if !ok {
				ts, te, _ = targetOf(f, at+1, at+len(c.old))
			}
			reuse = &lint.Reuse{Prev: reuse.Next, From: ts, OldTo: te, NewTo: te + len(c.new) - len(c.old)}
			_, got := lint.CheckParsed(nf, copyDiags(nparsed), ctx, lint.Options{Reuse: reuse})
			_, want := lint.CheckParsed(nf, copyDiags(nparsed), ctx, lint.Options{})
			if g, w := diagJSON(got), diagJSON(want); g != w {
				t.Errorf("took over %v:\ngot:  %s\nwant: %s", reuse.TookOver, g, w)
			}
		})
	}
}

// TestReuseRefusesHeaders: a range that holds a header (not what the
// language server passes, but the API allows it) takes nothing over.
func TestReuseRefusesHeaders(t *testing.T) {
	text := "# Vars: A=1\nt1:\n    emit(text=\"${A}\")\n\ndefault: t1\n"
	next := strings.Replace(text, "A=1", "B=1", 1)
	end := strings.Index(text, "\n\ndefault")
	f, parsed := syntax.Parse("s.skill.md", []byte(text))
	reuse := &lint.Reuse{}
	lint.CheckParsed(f, copyDiags(parsed), nil, lint.Options{Reuse: reuse})
	nf, nparsed := syntax.Parse("s.skill.md", []byte(next))
	reuse = &lint.Reuse{Prev: reuse.Next, From: 0, OldTo: end, NewTo: end}
	_, got := lint.CheckParsed(nf, copyDiags(nparsed), nil, lint.Options{Reuse: reuse})
	_, want := lint.CheckParsed(nf, copyDiags(nparsed), nil, lint.Options{})
	if reuse.TookOver {
		t.Error("took over across a header")
	}
	if g, w := diagJSON(got), diagJSON(want); g != w {
		t.Errorf("got:  %s\nwant: %s", g, w)
	}
}
