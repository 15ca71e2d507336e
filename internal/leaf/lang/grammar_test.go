package lang

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

// grammarRow is one row of the reference's op grammar summary.
type grammarRow struct {
	Class, Op, Binding string
	Members            []string // typed-contract name patterns
}

// readGrammar reads testdata/grammar.txt.
func readGrammar(t testing.TB) []grammarRow {
	t.Helper()
	var rows []grammarRow
	for _, f := range dataLines(t, "testdata/grammar.txt") {
		if len(f) < 3 {
			t.Fatalf("grammar.txt: short row %v", f)
		}
		rows = append(rows, grammarRow{Class: f[0], Op: f[1], Binding: f[2], Members: f[3:]})
	}
	return rows
}

// dataLines returns the fields of the non-comment lines of a testdata file.
func dataLines(t testing.TB, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for line := range strings.Lines(string(data)) {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			out = append(out, f)
		}
	}
	return out
}

// TestCatalogMatchesGrammarSummary checks every op of the reference's op
// grammar summary is catalogued with the documented class and binding
// rule, and that the catalog has no op the summary lacks.
func TestCatalogMatchesGrammarSummary(t *testing.T) {
	var intrinsics []string
	typed := map[string]bool{}
	for _, r := range readGrammar(t) {
		switch r.Class {
		case "mutation":
			checkStatementBinding(t, r)
		case "runtime-intrinsic":
			intrinsics = append(intrinsics, r.Op)
			o, ok := Op(r.Op)
			if !ok || o.Class != Intrinsic || string(o.Binding) != r.Binding {
				t.Errorf("%s: catalog has class %v binding %q, the reference says intrinsic, %q", r.Op, o.Class, o.Binding, r.Binding)
			}
		case "typed-contract":
			for _, name := range TypedContracts() {
				typed[name] = true
				checkTypedRow(t, r, name)
			}
			checkPatternsUsed(t, r)
		case "external-mcp":
			// Connector tools are configuration, not vocabulary.
		default:
			t.Errorf("grammar.txt: unknown class %q", r.Class)
		}
	}
	if !slices.Equal(Intrinsics(), intrinsics) {
		t.Errorf("catalog intrinsics %v, the reference lists %v", Intrinsics(), intrinsics)
	}
	if len(typed) == 0 {
		t.Errorf("grammar.txt has no typed-contract row")
	}
}

// checkStatementBinding checks a $set/$append row against Statements.
func checkStatementBinding(t *testing.T, r grammarRow) {
	t.Helper()
	i := slices.IndexFunc(Statements(), func(s Statement) bool { return s.Label == r.Op })
	if i < 0 || string(Statements()[i].Binding) != r.Binding {
		t.Errorf("%s: not a statement binding %q", r.Op, r.Binding)
	}
}

// checkTypedRow checks one typed-contract op against the summary's row.
func checkTypedRow(t *testing.T, r grammarRow, name string) {
	t.Helper()
	if !slices.ContainsFunc(r.Members, func(p string) bool { ok, _ := path.Match(p, name); return ok }) {
		t.Errorf("typed-contract op %s is not admitted by the reference (%v)", name, r.Members)
	}
	if o, _ := Op(name); string(o.Binding) != r.Binding {
		t.Errorf("$ %s: binding %q, the reference says %q", name, o.Binding, r.Binding)
	}
}

// checkPatternsUsed checks every pattern of the row names a catalogued op.
func checkPatternsUsed(t *testing.T, r grammarRow) {
	t.Helper()
	for _, p := range r.Members {
		if !slices.ContainsFunc(TypedContracts(), func(n string) bool { ok, _ := path.Match(p, n); return ok }) {
			t.Errorf("the reference's typed-contract pattern %s matches no catalogued op", p)
		}
	}
}

// TestReservedMatchesReference checks ReservedWords against
// testdata/reserved.txt, group by group.
func TestReservedMatchesReference(t *testing.T) {
	var want []string
	for _, f := range dataLines(t, "testdata/reserved.txt") {
		want = append(want, f[1:]...)
	}
	if got := ReservedWords(); !slices.Equal(got, want) {
		t.Errorf("ReservedWords() = %v\nreference: %v", got, want)
	}
}

// specDir returns the directory of the language reference: SKILLSCRIPT_SPEC,
// else spec/ of the shared directory (package testcorpus), skipping t
// loudly (failing it under CI) when neither has it.
func specDir(t *testing.T) string {
	if dir := os.Getenv("SKILLSCRIPT_SPEC"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "language-reference.md")); err == nil {
			return dir
		}
	}
	return filepath.Dir(testcorpus.Shared(t, "spec", "language-reference.md"))
}

// referenceSection returns the lines of the reference from the heading
// that starts with title to the next heading of the same or a higher level.
func referenceSection(t *testing.T, title string) []string {
	t.Helper()
	dir := specDir(t)
	f, err := os.Open(filepath.Join(dir, "language-reference.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	level := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		hashes := len(line) - len(strings.TrimLeft(line, "#"))
		switch {
		case level == 0 && hashes > 0 && strings.HasPrefix(strings.TrimSpace(line[hashes:]), title):
			level = hashes
		case level > 0 && hashes > 0 && hashes <= level && strings.HasPrefix(line[hashes:], " "):
			return out
		case level > 0:
			out = append(out, line)
		}
	}
	if level == 0 {
		t.Fatalf("the reference has no section %q", title)
	}
	return out
}

// TestGrammarFileMatchesReference checks testdata/grammar.txt still says
// what the reference's op grammar summary says.
func TestGrammarFileMatchesReference(t *testing.T) {
	var got []grammarRow
	for _, line := range referenceSection(t, "Op grammar summary") {
		cells := tableCells(line)
		if len(cells) != 4 || cells[0] == "Class" || strings.HasPrefix(cells[0], "---") {
			continue
		}
		got = append(got, grammarRow{Class: classOf(cells[0]), Op: strings.ReplaceAll(strings.Trim(cells[1], "`"), " ", ""),
			Binding: bindingOf(cells[3]), Members: typedMembers(cells[2])})
	}
	want := readGrammar(t)
	if len(got) != len(want) {
		t.Fatalf("the reference has %d rows, grammar.txt %d:\n%v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Class != want[i].Class || got[i].Op != want[i].Op || got[i].Binding != want[i].Binding || !slices.Equal(got[i].Members, want[i].Members) {
			t.Errorf("row %d: reference %+v, grammar.txt %+v", i+1, got[i], want[i])
		}
	}
}

// tableCells splits a markdown table row into trimmed cells; a "|" inside
// a code span does not split.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") {
		return nil
	}
	var cells []string
	var cur strings.Builder
	code := false
	for _, r := range line[1:] {
		switch {
		case r == '`':
			code = !code
			cur.WriteRune(r)
		case r == '|' && !code:
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return cells
}

// classOf normalises a class cell ("External MCP — typed-contract").
func classOf(cell string) string {
	c := strings.ToLower(cell)
	switch {
	case strings.Contains(c, "typed-contract"):
		return "typed-contract"
	case strings.HasPrefix(c, "external mcp"):
		return "external-mcp"
	}
	return c
}

// bindingOf normalises a binding cell: "none (compile-time)" is "none";
// a variable placeholder ("NAME (no arrow)", "VAR (no arrow)") is "name".
func bindingOf(cell string) string {
	first, _, _ := strings.Cut(cell, " ")
	if first != "" && first == strings.ToUpper(first) {
		return "name"
	}
	return first
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// typedMembers returns the code spans after "ops only:" in a shape cell.
func typedMembers(shape string) []string {
	_, after, ok := strings.Cut(shape, "ops only:")
	if !ok {
		return nil
	}
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(after, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestReservedFileMatchesReference checks testdata/reserved.txt against
// the reference's reserved keywords.
func TestReservedFileMatchesReference(t *testing.T) {
	var got []string
	for _, line := range referenceSection(t, "Reserved keywords") {
		if !strings.HasPrefix(line, "**") || strings.HasPrefix(line, "**Mutation") || strings.HasPrefix(line, "**Case") {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			got = append(got, m[1])
		}
	}
	var want []string
	for _, f := range dataLines(t, "testdata/reserved.txt") {
		want = append(want, f[1:]...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("the reference reserves %v\nreserved.txt: %v", got, want)
	}
}
