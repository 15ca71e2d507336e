package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/ast"
)

// sampleResults returns a small result set with every diagnostic feature.
func sampleResults() []ast.FileDiagnostics {
	src := []byte("# Skill: s\nbuild:\n  emit(text=\"${X}\")\n")
	d1 := ast.Errorf("undeclared-var", ast.RangeOf(33, 34), "X is not declared")
	d1.Target = "build"
	d1.WithFix("declare X", ast.RangeOf(10, 10), "\n# Vars: X")
	d1.Fixes = append(d1.Fixes, ast.Fix{Title: "no edits"})
	d2 := ast.Warnf("orphan-target", ast.RangeOf(11, 16), "build is orphaned")
	d2.Related = []ast.Related{{Range: ast.RangeOf(0, 1), Message: ""}}
	d3 := ast.Infof("", ast.Range{}, "")
	return []ast.FileDiagnostics{{File: "s.skill.md", Src: src, Diags: ast.Diagnostics{d1, nil, d2, d3}}}
}

func TestHumanColor(t *testing.T) {
	rs := sampleResults()
	var plain, colored bytes.Buffer
	if err := HumanAll(&plain, rs, HumanOptions{Context: true}); err != nil {
		t.Fatal(err)
	}
	if err := HumanAll(&colored, rs, HumanOptions{Context: true, Color: true}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte("\x1b[")) {
		t.Errorf("plain output has colour codes:\n%q", plain.String())
	}
	if !bytes.Contains(colored.Bytes(), []byte("\x1b[31;1merror[undeclared-var]\x1b[")) {
		t.Errorf("coloured output lacks a red bold severity:\n%q", colored.String())
	}
	if got := stripANSI(colored.String()); got != plain.String() {
		t.Errorf("coloured output differs from plain once codes are removed:\n%s\nvs\n%s", got, plain.String())
	}
}

// stripANSI removes SGR escape sequences.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestHumanExcerpt(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		from, to  int
		wantLine  string
		wantCaret string
	}{
		{"ascii", "ab cd\n", 3, 5, " 1 | ab cd", "   |    ^~"},
		{"crlf", "ab\r\ncd ef\r\n", 7, 9, " 2 | cd ef", "   |    ^~"},
		{"runes", "é€𝄞 x\n", 10, 11, " 1 | é€𝄞 x", "   |     ^"},
		{"tab", "\t\tx = 1\n", 2, 3, " 1 | \t\tx = 1", "   | \t\t^"},
		{"to end", "abc\ndef\n", 1, 6, " 1 | abc", "   |  ^~"},
		{"control", "a\x1b[2Jb\n", 5, 6, " 1 | a\uFFFD[2Jb", "   |      ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			d := ast.Errorf("r", ast.RangeOf(tt.from, tt.to), "m")
			if err := Human(&buf, "f", []byte(tt.src), ast.Diagnostics{d}, HumanOptions{Context: true}); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if len(lines) != 3 || lines[1] != tt.wantLine || lines[2] != tt.wantCaret {
				t.Errorf("got\n%s\nwant line %q and caret %q", buf.String(), tt.wantLine, tt.wantCaret)
			}
		})
	}
}

func TestJSONFields(t *testing.T) {
	var buf bytes.Buffer
	if err := JSON(&buf, sampleResults()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Diagnostics []map[string]any `json:"diagnostics"`
		Summary     map[string]int   `json:"summary"`
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Diagnostics) != 3 {
		t.Fatalf("got %d diagnostics, want 3 (nil skipped)", len(doc.Diagnostics))
	}
	required := []string{"file", "line", "column", "end_line", "end_column", "severity", "rule", "message", "target"}
	for i, d := range doc.Diagnostics {
		for _, k := range required {
			if _, ok := d[k]; !ok {
				t.Errorf("diagnostic %d lacks %q", i, k)
			}
		}
	}
	first := doc.Diagnostics[0]
	if first["line"] != json.Number("3") || first["column"] != json.Number("16") || first["target"] != "build" {
		t.Errorf("first diagnostic = %v", first)
	}
	if fixes, _ := first["fixes"].([]any); len(fixes) != 2 {
		t.Errorf("fixes = %v, want two", first["fixes"])
	}
	if _, ok := doc.Diagnostics[1]["fixes"]; ok {
		t.Errorf("a diagnostic without fixes has a fixes field")
	}
	want := map[string]int{"files": 1, "errors": 1, "warnings": 1, "infos": 1}
	for k, v := range want {
		if doc.Summary[k] != v {
			t.Errorf("summary[%s] = %d, want %d", k, doc.Summary[k], v)
		}
	}
}

func TestJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := JSON(&buf, nil); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"diagnostics\": [],\n  \"summary\": {\n    \"files\": 0,\n    \"errors\": 0,\n    \"warnings\": 0,\n    \"infos\": 0\n  }\n}\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// TestSARIFSchema validates the SARIF of every golden case and of the sample
// against the vendored schema subset, and checks rule indexes.
func TestSARIFSchema(t *testing.T) {
	schema := loadSchema(t)
	cases := map[string][]ast.FileDiagnostics{"sample": sampleResults()}
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[filepath.Base(f)] = loadCase(t, ar)
	}
	for name, rs := range cases {
		var buf bytes.Buffer
		if err := SARIF(&buf, rs, testTool); err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s: schema: %v", name, err)
		}
		checkRuleIndexes(t, name, buf.Bytes())
	}
}

// loadSchema reads the vendored SARIF schema subset.
func loadSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(goldenDir, "sarif-2.1.0-subset.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// checkRuleIndexes checks that every result's ruleIndex names its ruleId.
func checkRuleIndexes(t *testing.T, name string, data []byte) {
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	rules := log.Runs[0].Tool.Driver.Rules
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.ID] {
			t.Errorf("%s: rule %s listed twice", name, r.ID)
		}
		seen[r.ID] = true
	}
	for _, res := range log.Runs[0].Results {
		if res.RuleIndex >= len(rules) || rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("%s: result %s has ruleIndex %d", name, res.RuleID, res.RuleIndex)
		}
	}
}

func TestArtifactURI(t *testing.T) {
	tests := []struct{ file, root, want string }{
		{"a/b.skill.md", "", "a/b.skill.md"},
		{"/repo/a/b.skill.md", "/repo", "a/b.skill.md"},
		{"/elsewhere/b.skill.md", "/repo", "file:///elsewhere/b.skill.md"},
		{"/repo/../x.skill.md", "/repo", "file:///repo/../x.skill.md"},
		{"a b/c#d.skill.md", "", "a%20b/c%23d.skill.md"},
		{"c:x.skill.md", "", "./c:x.skill.md"},
	}
	for _, tt := range tests {
		if got := artifactURI(tt.file, tt.root); got != tt.want {
			t.Errorf("artifactURI(%q, %q) = %q, want %q", tt.file, tt.root, got, tt.want)
		}
	}
}

func TestGitHubEscaping(t *testing.T) {
	tests := []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"k:v,w", "k:v,w", "k%3Av%2Cw"},
		{"%0A", "%250A", "%250A"},
	}
	for _, tt := range tests {
		if got := escapeData(tt.in); got != tt.data {
			t.Errorf("escapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := escapeProperty(tt.in); got != tt.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

func TestGitHubLines(t *testing.T) {
	var buf bytes.Buffer
	if err := GitHub(&buf, sampleResults()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []string{
		"::error file=s.skill.md,line=3,col=16,endLine=3,endColumn=17,title=undeclared-var::X is not declared",
		"::warning file=s.skill.md,line=2,col=1,endLine=2,endColumn=6,title=orphan-target::build is orphaned",
		"::notice file=s.skill.md::",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), strings.Join(want, "\n"))
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	rs := sampleResults()
	renderers := map[string]func() error{
		"human":  func() error { return HumanAll(failWriter{}, rs, HumanOptions{Context: true}) },
		"json":   func() error { return JSON(failWriter{}, rs) },
		"sarif":  func() error { return SARIF(failWriter{}, rs, testTool) },
		"github": func() error { return GitHub(failWriter{}, rs) },
	}
	for name, run := range renderers {
		if err := run(); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s: error = %v, want the write error", name, err)
		}
	}
}

func TestSummarize(t *testing.T) {
	rs := sampleResults()
	rs = append(rs, ast.FileDiagnostics{File: "b", Diags: ast.Diagnostics{{Severity: 0, Message: "no severity"}}})
	got := Summarize(rs)
	want := Summary{Files: 2, Errors: 2, Warnings: 1, Infos: 1}
	if got != want {
		t.Errorf("Summarize = %+v, want %+v", got, want)
	}
}

// A related location in another file is shown with that file's name and
// its line and column, resolved from the other result's source (or from the
// disk when the file is not among the results).
func TestRelatedInAnotherFile(t *testing.T) {
	other := filepath.Join(t.TempDir(), "twin.skill.md")
	if err := os.WriteFile(other, []byte("# Skill: report\n\n# Skill: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := []byte("# Skill: report\n")
	d := &ast.Diagnostic{Severity: ast.Info, Rule: "duplicate-skill-name", Range: ast.RangeOf(9, 15), Message: "dup",
		Related: []ast.Related{{File: other, Range: ast.RangeOf(26, 27), Message: "also declared here"}}}
	results := []ast.FileDiagnostics{{File: "a.skill.md", Src: src, Diags: ast.Diagnostics{d}}}
	var human, js, gh, sarif bytes.Buffer
	if err := HumanAll(&human, results, HumanOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "note: " + other + ":3:10: also declared here"; !strings.Contains(human.String(), want) {
		t.Errorf("human = %q, want %q", human.String(), want)
	}
	if err := JSON(&js, results); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Diagnostics []struct {
			Related []struct {
				File   string
				Line   int
				Column int
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if r := rep.Diagnostics[0].Related; len(r) != 1 || r[0].File != other || r[0].Line != 3 || r[0].Column != 10 {
		t.Errorf("json related = %+v", r)
	}
	if err := GitHub(&gh, results); err != nil {
		t.Fatal(err)
	}
	if want := "%0Anote: " + other + ":3:10: also declared here"; !strings.Contains(gh.String(), want) {
		t.Errorf("github = %q, want %q", gh.String(), want)
	}
	if err := SARIF(&sarif, results, ToolInfo{Name: "skillc", Root: filepath.Dir(other)}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sarif.String(), `"uri": "twin.skill.md"`) || !strings.Contains(sarif.String(), `"startLine": 3`) {
		t.Errorf("sarif related location missing: %s", sarif.String())
	}
}

// TestPlainTextAgrees checks the byte scan of replaceControls' fast path:
// whatever it calls plain holds no control character outside keep.
func TestPlainTextAgrees(t *testing.T) {
	for _, tt := range []struct {
		s, keep string
		plain   bool
	}{
		{"abc def", "\t", true},
		{"a\tb", "\t", true},
		{"a\nb", "\t", false},
		{"a\nb", "\t\n", true},
		{"\x7f", "\t\n", false},
		{"é", "\t\n", false}, // not ASCII: decoded by the slow path
		{"", "\t", true},
	} {
		if got := plainText(tt.s, tt.keep); got != tt.plain {
			t.Errorf("plainText(%q, %q) = %v, want %v", tt.s, tt.keep, got, tt.plain)
		}
		checkPlainText(t, tt.s)
	}
}

// FuzzPlainText checks plainText against the rune test it stands in for.
func FuzzPlainText(f *testing.F) {
	for _, s := range []string{"abc", "a\tb\nc", "\x00", "\u0085", "\u200b", "é\x7f"} {
		f.Add(s)
	}
	f.Fuzz(checkPlainText)
}

func checkPlainText(t *testing.T, s string) {
	for _, keep := range []string{"\t", "\t\n"} {
		if !plainText(s, keep) {
			continue
		}
		if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) && !strings.ContainsRune(keep, r) }); i >= 0 {
			t.Errorf("plainText(%q, %q) is true, but byte %d is a control character", s, keep, i)
		}
		if got := replaceControls(s, keep); got != s {
			t.Errorf("replaceControls(%q, %q) = %q, want it unchanged", s, keep, got)
		}
	}
}
