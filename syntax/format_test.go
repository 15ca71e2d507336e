package syntax

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/skillscript/skillc/ast"
)

// checkFormat formats src and verifies the formatter's guarantees: the
// output parses without errors to the same tree, keeps every
// non-whitespace character, and formats to itself.
func checkFormat(t testing.TB, name string, src []byte) []byte {
	t.Helper()
	f, diags := Parse(name, src)
	if diags.HasErrors() {
		return nil
	}
	out, err := Format(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	g, gdiags := Parse(name, out)
	if gdiags.HasErrors() {
		t.Fatalf("%s: formatted output has errors %v:\n%s", name, gdiags, out)
	}
	if a, b := shape(f), shape(g); a != b {
		t.Fatalf("%s: formatting changed the tree:\n%s\nformatted:\n%s", name, firstDiff([]byte(a), []byte(b)), out)
	}
	if a, b := content(src), content(out); a != b {
		t.Fatalf("%s: formatting changed non-whitespace content:\n%s", name, firstDiff([]byte(a), []byte(b)))
	}
	again, err := Format(g)
	if err != nil || string(again) != string(out) {
		t.Fatalf("%s: format is not idempotent:\n%s", name, firstDiff(out, again))
	}
	return out
}

// TestFormatProperties checks the formatter's guarantees on every
// testdata and corpus file that parses without errors.
func TestFormatProperties(t *testing.T) {
	checkFormatProperties(t, append(testdataFiles(t), corpusFiles(t, "")...))
	t.Run("shared", func(t *testing.T) { checkFormatProperties(t, sharedCorpusFiles(t, "")) })
}

func checkFormatProperties(t *testing.T, files []string) {
	formatted := 0
	for _, path := range files {
		if checkFormat(t, path, readFile(t, path)) != nil {
			formatted++
		}
	}
	if formatted < len(files)/2 {
		t.Errorf("only %d of %d files were formattable", formatted, len(files))
	}
}

// TestFormatGolden compares the formatter's output for the error-free
// testdata files with testdata/syntax/golden/format; -update rewrites.
func TestFormatGolden(t *testing.T) {
	for _, path := range testdataFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".skill.md")
		src := readFile(t, path)
		if _, diags := Parse(path, src); diags.HasErrors() {
			continue
		}
		t.Run(name, func(t *testing.T) {
			out := checkFormat(t, path, src)
			golden(t, filepath.Join("format", name+".txtar"), []txtar.File{{Name: name + ".skill.md", Data: out}})
		})
	}
}

// TestFormatRules pins the canonical layout rule by rule.
func TestFormatRules(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"header key and spacing", "#   skill:hello\n# Vars:A = 1,B ,  C=[a,b]\n\nHi ${A}\n",
			"# Skill: hello\n# Vars: A=1, B, C=[a, b]\n\nHi ${A}\n"},
		{"status and output", "# Status: approved   v3:sig\n# Output: agent:ops ,  text\nx\n",
			"# Status: Approved v3:sig\n# Output: agent: ops, text\nx\n"},
		{"classification spacing", "# classification:  role=sidecar   invocation=attach\teffect_mode=read_only  attach_targets=run,output\nx\n",
			"# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=run,output\nx\n"},
		{"requires", "# Requires: user-var:loc->LOC(fallback:here) ,secret.K\nx\n",
			"# Requires: user-var:loc -> LOC (fallback: here), secret.K\nx\n"},
		{"set spacing", "t:\n  $set A=\"x\"\ndefault: t\n",
			"t:\n    $set A = \"x\"\n\ndefault: t\n"},
		{"kwargs, arrow, fallback", "t:\n\t\t$ a.b   k = \"v\"  n=1->R(fallback:[ ])\ndefault: t\n", ""},
		{"kwargs, arrow, fallback spaces", "t:\n  $ a.b   k = \"v\"  n=1->R(fallback:[ ])\ndefault: t\n",
			"t:\n    $ a.b k=\"v\" n=1 -> R (fallback: [])\n\ndefault: t\n"},
		{"glued fallback word", "t:\n    $ a.b -> R (fallback:unknown)\ndefault: t\n",
			"t:\n    $ a.b -> R (fallback: unknown)\n\ndefault: t\n"},
		{"call spacing", "t:\n    emit ( text = \"a  b\" , level=1 )\ndefault: t\n",
			"t:\n    emit(text=\"a  b\", level=1)\n\ndefault: t\n"},
		{"blank lines between targets", "a:\n    emit(text=\"a\")\nb: a\n    emit(text=\"b\")\n\n\n\ndefault: b",
			"a:\n    emit(text=\"a\")\n\nb: a\n    emit(text=\"b\")\n\ndefault: b\n"},
		{"nested blocks", "t:\n  if ${A}:\n      foreach X in ${L} :\n         emit(text=\"x\")\n  else:\n    emit(text=\"y\")\ndefault: t\n",
			"t:\n    if ${A}:\n        foreach X in ${L}:\n            emit(text=\"x\")\n    else:\n        emit(text=\"y\")\n\ndefault: t\n"},
		{"comments kept", "# lead\nt:  # tail\n  # own\n  $set A = 1   # after\ndefault: t # end\n",
			"# lead\nt:  # tail\n    # own\n    $set A = 1  # after\n\ndefault: t  # end\n"},
		{"multi-line call", "t:\n  file_write(\n      path=\"p\",\n          content=\"c\",\n  )\ndefault: t\n",
			"t:\n    file_write(\n        path=\"p\",\n        content=\"c\",\n    )\n\ndefault: t\n"},
		{"triple string kept", "t:\n  $set A = \"\"\"\n      keep   this\n   \"\"\"\ndefault: t\n",
			"t:\n    $set A = \"\"\"\n      keep   this\n   \"\"\"\n\ndefault: t\n"},
		{"two statements on a line", "t:\n  $set A = 1 $set B = 2\ndefault: t\n",
			"t:\n    $set A = 1  $set B = 2\n\ndefault: t\n"},
		{"target else", "t:\n  $ a.b -> R\nelse:\n  emit(text=\"${ERROR_CONTEXT.message}\")\ndefault: t\n",
			"t:\n    $ a.b -> R\nelse:\n    emit(text=\"${ERROR_CONTEXT.message}\")\n\ndefault: t\n"},
		{"fence and prose", "Prose  kept\n```skillscript\n#Skill: f\nt:\n  emit(text=\"x\")\ndefault: t\n```\n  trailing   prose\n",
			"Prose  kept\n```skillscript\n# Skill: f\n\nt:\n    emit(text=\"x\")\n\ndefault: t\n```\n  trailing   prose\n"},
		{"template byte for byte", "# Skill: t\n\nHello,   ${WHO}!  \n   Bye.\t\n",
			"# Skill: t\n\nHello,   ${WHO}!  \n   Bye.\t\n"},
		{"needs forms", "a:\n    emit(text=\"a\")\nb:   needs:a ,c\n    emit(text=\"b\")\nc: a   b\n    needs:  a\n    emit(text=\"c\")\ndefault: c\n",
			"a:\n    emit(text=\"a\")\n\nb: needs: a, c\n    emit(text=\"b\")\n\nc: a b\n    needs: a\n    emit(text=\"c\")\n\ndefault: c\n"},
		{"condition spacing", "t:\n    if not(${A}==\"x\"or ${B}  in ${L}):\n        emit(text=\"x\")\ndefault: t\n",
			"t:\n    if not (${A} == \"x\" or ${B} in ${L}):\n        emit(text=\"x\")\n\ndefault: t\n"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, diags := FormatSource(c.name, []byte(c.in))
			if c.want == "" && c.in != "" {
				if len(diags) == 0 {
					t.Fatalf("want a refusal, got:\n%s", out)
				}
				return
			}
			if len(diags) > 0 {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			if string(out) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s\n%s", out, c.want, firstDiff([]byte(c.want), out))
			}
			checkFormat(t, c.name, []byte(c.in))
		})
	}
}

// TestFormatSourceRefuses checks that sources with syntax errors are not
// rewritten and that their error diagnostics are returned.
func TestFormatSourceRefuses(t *testing.T) {
	src := []byte("t:\n    $set A \"x\"\n    if ${A} = \"y\":\n        emit(text=\"z\")\ndefault: t\n")
	out, diags := FormatSource("bad", src)
	if out != nil {
		t.Errorf("got output for a broken source:\n%s", out)
	}
	if len(diags) != 2 || !hasRule(diags, "malformed-op-grammar") || !hasRule(diags, "single-equals") {
		t.Errorf("got diagnostics %v, want malformed-op-grammar and single-equals", diags)
	}
	for _, d := range diags {
		if d.Severity != ast.Error {
			t.Errorf("refusal returned a non-error diagnostic %v", d)
		}
	}
}

// TestFormatKeepsBadStatements checks that Format copies statements that
// did not parse instead of dropping them.
func TestFormatKeepsBadStatements(t *testing.T) {
	src := []byte("t:\n  $set A \"x\"\n  emit(text=\"ok\")\ndefault: t\n")
	f, _ := Parse("bad", src)
	out, err := Format(f)
	if err != nil {
		t.Fatal(err)
	}
	if content(out) != content(src) {
		t.Errorf("content lost:\n%s", out)
	}
	if !strings.Contains(string(out), "    $set A \"x\"\n") {
		t.Errorf("bad statement not kept at its block's indentation:\n%s", out)
	}
}
