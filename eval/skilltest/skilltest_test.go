package skilltest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/datastore"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

// probeBody is the skill most tests run: a connector lookup with a
// fallback, an op that fails into the target's else:, and a second
// target whose failure is not contained.
const probeBody = `
Report for ${CITY}: ${OUT}

fetch:
    emit(text="fetching ${CITY}")
    $ svc.lookup city="${CITY}" -> RAW (fallback: "n/a")
    if ${MODE} == "fail":
        $ svc.explode -> BOOM
    $set OUT = "${RAW}"
else:
    $set OUT = "recovered"

finish:
    needs: fetch
    if ${MODE} == "crash":
        $ svc.crash -> X

default: finish
`

const probeMock = `
mocks:
  - op: svc.lookup
    args: {city: Oslo}
    result: snow
  - op: svc.lookup
    args: {city: Empty}
    result: ""
`

// probe builds the probe skill with the given # Tests: cases (YAML lines
// indented by two spaces).
func probe(cases string) string {
	return "# Skill: probe\n# Status: Approved\n# Timeout: 5\n# Vars: CITY, MODE=\"ok\"\n# Tests:\n" + cases + probeBody
}

// runSource lints src like skillc check does and runs its cases.
func runSource(t *testing.T, src string, opts Options) []CaseResult {
	t.Helper()
	f, info, ds := lint.Check("probe.skill.md", []byte(src), &lint.Context{}, lint.Options{Rules: rulesets.All()})
	opts.Diagnostics = ds
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	return Run(context.Background(), f, info, func() *eval.Runner { return &eval.Runner{} }, opts)
}

func withProbeMock() Options {
	return Options{Mock: &MockFile{Name: "probe.mock.yaml", Data: []byte(probeMock)}}
}

// one runs a skill holding a single case and returns its result.
func one(t *testing.T, src string, opts Options) CaseResult {
	t.Helper()
	rs := runSource(t, src, opts)
	if len(rs) != 1 {
		t.Fatalf("got %d case results, want 1", len(rs))
	}
	return rs[0]
}

func messages(r CaseResult) string {
	var b strings.Builder
	for _, f := range r.Failures {
		b.WriteString(f.Message + "\n")
	}
	return b.String()
}

// TestAssertionKinds checks every assertion kind passing and failing;
// a failure must say what was expected and what was got.
func TestAssertionKinds(t *testing.T) {
	tests := []struct {
		name   string
		given  string
		expect string
		// want are substrings of the failure messages; none means the case
		// must pass.
		want []string
	}{
		{"compiled contains", "{CITY: Oslo}", `compiled_output_contains: "Report for Oslo"`, nil},
		{"compiled contains emission", "{CITY: Oslo}", `compiled_output_contains: "fetching Oslo"`, nil},
		{"compiled contains fails", "{CITY: Oslo}", `compiled_output_contains: "Bergen"`,
			[]string{`expected the compiled output to contain "Bergen"`, `got "Report for Oslo: `}},
		{"compiled does not contain", "{CITY: Oslo}", `compiled_output_does_not_contain: "Bergen"`, nil},
		{"compiled does not contain fails", "{CITY: Oslo}", `compiled_output_does_not_contain: "Oslo"`,
			[]string{`expected the compiled output not to contain "Oslo"`, `got "Report for Oslo`}},
		{"compile error spec wording", "{CITY: null}", `compile_error: "Missing required variable: CITY"`, nil},
		{"compile error run wording", "{CITY: null}", `compile_error: "missing required input CITY"`, nil},
		{"compile error wrong text", "{CITY: null}", `compile_error: "no such thing"`,
			[]string{`expected a compile error containing "no such thing"`, "got: MissingInputError: missing required input CITY"}},
		{"compile error none", "{CITY: Oslo}", `compile_error: "anything"`,
			[]string{`expected a compile error containing "anything"; the skill compiled without errors`}},
		{"else executed", "{CITY: Oslo, MODE: fail}", `target_else_executed: fetch`, nil},
		{"else not executed", "{CITY: Oslo}", `target_else_executed: fetch`,
			[]string{`expected the else: of target "fetch" to run; else: ran for: none`}},
		{"else unknown target", "{CITY: Oslo}", `target_else_executed: fetchh`,
			[]string{`the skill has no target "fetchh" (targets: fetch, finish)`}},
		{"fallback by index", "{CITY: Tromso}", `op_fallback_used: fetch.2`, nil},
		{"fallback on empty result", "{CITY: Empty}", `op_fallback_used: fetch.2`, nil},
		{"fallback any op of target", "{CITY: Tromso}", `op_fallback_used: fetch`, nil},
		{"fallback not fired", "{CITY: Oslo}", `op_fallback_used: fetch.2`,
			[]string{`expected the fallback of op fetch.2 (line`, "fallbacks fired: none"}},
		{"fallback other op", "{CITY: Tromso}", `op_fallback_used: fetch.1`,
			[]string{`expected the fallback of op fetch.1`, "fallbacks fired: fetch.2 ($ svc.lookup, line 15): OpError: mock: no entry matches svc.lookup"}},
		{"fallback index out of range", "{CITY: Oslo}", `op_fallback_used: fetch.9`,
			[]string{`target "fetch" has 5 ops; there is no op 9`}},
		{"fallback bad ref", "{CITY: Oslo}", `op_fallback_used: fetch.first`,
			[]string{`want target.N with N the 1-based op number, got "fetch.first"`}},
		{"result value", "{CITY: Oslo}", `result_value: "Report for Oslo: snow"`, nil},
		{"result value trimmed", "{CITY: Oslo}", `result_value: "  Report for Oslo: snow \n"`, nil},
		{"result value after fallback", "{CITY: Tromso}", `result_value: "Report for Tromso: n/a"`, nil},
		{"result value fails", "{CITY: Oslo}", `result_value: "Report for Oslo: rain"`,
			[]string{`expected the result "Report for Oslo: rain"; got "Report for Oslo: snow"`}},
		{"output contains", "{CITY: Oslo, MODE: fail}", `output_contains: "recovered"`, nil},
		{"output contains fails", "{CITY: Oslo}", `output_contains: "recovered"`,
			[]string{`expected the output to contain "recovered"; got "Report for Oslo: snow"`}},
		{"output does not contain", "{CITY: Oslo}", `output_does_not_contain: "recovered"`, nil},
		{"output does not contain fails", "{CITY: Oslo}", `output_does_not_contain: "snow"`,
			[]string{`expected the output not to contain "snow"; got "Report for Oslo: snow"`}},
		{"error contains", "{CITY: Oslo, MODE: crash}", `error_contains: "no entry matches svc.crash"`, nil},
		{"error contains case-insensitive", "{CITY: Oslo, MODE: crash}", `error_contains: "NO ENTRY MATCHES"`, nil},
		{"error contains fails", "{CITY: Oslo, MODE: crash}", `error_contains: "timeout"`,
			[]string{`expected a run error containing "timeout"; got: `, "svc.crash"}},
		{"error contains but run ok", "{CITY: Oslo}", `error_contains: "boom"`,
			[]string{`expected a run error containing "boom"; the run recorded no errors`}},
		{"emits", "{CITY: Oslo}", `emits: "fetching Oslo"`, nil},
		{"emits fails", "{CITY: Oslo}", `emits: "fetching Bergen"`,
			[]string{`expected an emission containing "fetching Bergen"; got "fetching Oslo"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cases := "  - name: c\n    given: " + tt.given + "\n    expect:\n      " + tt.expect + "\n"
			r := one(t, probe(cases), withProbeMock())
			if tt.want == nil {
				if !r.Passed {
					t.Fatalf("case failed:\n%s", messages(r))
				}
				return
			}
			if r.Passed {
				t.Fatalf("case passed, want a failure containing %q", tt.want)
			}
			got := messages(r)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("failure messages\n%s\ndo not contain %q", got, w)
				}
			}
		})
	}
}

func TestFailureCarriesAssertionKindAndLine(t *testing.T) {
	src := probe("  - name: two\n    given: {CITY: Oslo}\n    expect:\n      emits: \"fetching Oslo\"\n      result_value: \"nope\"\n")
	r := one(t, src, withProbeMock())
	if r.Passed || len(r.Failures) != 1 {
		t.Fatalf("want exactly one failure, got %+v", r.Failures)
	}
	fl := r.Failures[0]
	lines := strings.Split(src, "\n")
	if fl.Assertion != "result_value" || !strings.HasPrefix(strings.TrimSpace(lines[fl.Line-1]), "result_value:") {
		t.Errorf("failure %+v does not point at the result_value line", fl)
	}
	if !strings.HasPrefix(strings.TrimSpace(lines[r.Line-1]), "- name: two") {
		t.Errorf("case line %d is %q, want the - name: line", r.Line, lines[r.Line-1])
	}
	if r.Assertions != 2 || r.Result == nil || r.Result.Outputs.Text != "Report for Oslo: snow" {
		t.Errorf("result not recorded: assertions=%d result=%v", r.Assertions, r.Result)
	}
}

func TestNullGivenUnsetsAndDefaultsApply(t *testing.T) {
	src := probe(`  - name: mode_null_takes_default
    given: {CITY: Oslo, MODE: null}
    expect:
      result_value: "Report for Oslo: snow"
  - name: city_null_is_missing
    given: {CITY: null}
    expect:
      error_contains: "missing required input CITY"
`)
	for _, r := range runSource(t, src, withProbeMock()) {
		if !r.Passed {
			t.Errorf("%s failed:\n%s", r.Name, messages(r))
		}
	}
}

func TestCaseLevelFailures(t *testing.T) {
	tests := []struct {
		name, cases, want string
	}{
		{"undeclared given", "  - name: c\n    given: {CITY: Oslo, CTY: x}\n    expect:\n      emits: x\n",
			"given: CTY is not declared in # Vars: or # Requires: (declared: CITY, MODE)"},
		{"unexpected missing input", "  - name: c\n    given: {}\n    expect:\n      compiled_output_contains: Report\n",
			"unexpected compile error: MissingInputError: missing required input CITY"},
		{"no assertions", "  - name: c\n    given: {CITY: Oslo}\n    expect: {}\n",
			"the case checks nothing: add assertions under expect:"},
		{"unexpected run failure", "  - name: c\n    given: {CITY: Oslo, MODE: crash}\n    expect:\n      emits: fetching\n",
			"the run failed: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := one(t, probe(tt.cases), withProbeMock())
			if r.Passed || !strings.Contains(messages(r), tt.want) {
				t.Fatalf("want a failure containing %q, got passed=%v:\n%s", tt.want, r.Passed, messages(r))
			}
			if r.Failures[0].Assertion != "" || r.Failures[0].Line != r.Line {
				t.Errorf("case-level failure %+v should point at the case line %d", r.Failures[0], r.Line)
			}
		})
	}
}

func TestLintErrorsBlockTheRun(t *testing.T) {
	src := "# Skill: broken\n# Status: Approved\n# Tests:\n  - name: c\n    expect:\n      result_value: hi\n  - name: expects_it\n    expect:\n      compile_error: undeclared\n\nmain:\n    emit(text=\"${NOPE}\")\n\ndefault: main\n"
	rs := runSource(t, src, Options{})
	if len(rs) != 2 {
		t.Fatalf("got %d results", len(rs))
	}
	if rs[0].Passed || !strings.Contains(messages(rs[0]), "unexpected compile error: line 12:") || rs[0].Result != nil {
		t.Errorf("case without compile_error: passed=%v result=%v\n%s", rs[0].Passed, rs[0].Result, messages(rs[0]))
	}
	if !rs[1].Passed {
		t.Errorf("compile_error case failed:\n%s", messages(rs[1]))
	}
}

func TestProblemsReportInvalidTests(t *testing.T) {
	src := "# Skill: x\n# Status: Approved\n# Tests:\n  - name: c\n    expect:\n      result_value_is: hi\n\nmain:\n    emit(text=\"hi\")\n\ndefault: main\n"
	f, _, ds := lint.Check("x.skill.md", []byte(src), &lint.Context{}, lint.Options{Rules: rulesets.All()})
	ps := Problems(f, ds)
	if len(ps) == 0 || !strings.Contains(ps[0].Message, `unknown assertion "result_value_is"`) || ps[0].Line != 6 {
		t.Fatalf("problems = %+v", ps)
	}
	if !HasTests(f) {
		t.Error("HasTests = false")
	}
}

func TestFilterSelectsCases(t *testing.T) {
	src := probe("  - name: alpha\n    given: {CITY: Oslo}\n    expect:\n      emits: Oslo\n  - name: beta\n    given: {CITY: Oslo}\n    expect:\n      emits: Oslo\n")
	opts := withProbeMock()
	opts.Filter = regexp.MustCompile("^bet")
	rs := runSource(t, src, opts)
	if len(rs) != 1 || rs[0].Name != "beta" {
		t.Fatalf("filter ran %+v", rs)
	}
}

// TestMockSequencesRestartPerCase: a mock response sequence starts over
// in every case, so cases do not depend on their order.
func TestMockSequencesRestartPerCase(t *testing.T) {
	m := &MockFile{Name: "seq.mock.yaml", Data: []byte("mocks:\n  - op: svc.lookup\n    responses:\n      - result: first\n      - result: second\n")}
	src := probe("  - name: a\n    given: {CITY: X}\n    expect:\n      result_value: \"Report for X: first\"\n  - name: b\n    given: {CITY: Y}\n    expect:\n      result_value: \"Report for Y: first\"\n")
	for _, r := range runSource(t, src, Options{Mock: m}) {
		if !r.Passed {
			t.Errorf("%s: %s", r.Name, messages(r))
		}
	}
}

const storeSkill = `# Skill: store-probe
# Status: Approved
# Autonomous: true
# Vars: NOTE
# Tests:
  - name: first
    given: {NOTE: one}
    expect:
      result_value: "1"
  - name: second
    given: {NOTE: two}
    expect:
      result_value: "1"
  - name: writes_a_skill
    given: {NOTE: three}
    expect:
      emits: "wrote child"

${N}

main:
    $ data_write content="${NOTE}" tags=["probe"] -> W
    $ data_read mode="recent" domain_tags=["probe"] limit=10 -> R
    if ${NOTE} == "three":
        $ skill_write name="child" source="# Skill: child\n# Status: Approved\n\nmain:\n    emit(text=\"changed\")\n\ndefault: main\n" overwrite=true -> S
        $ skill_read name="child" -> C
        emit(text="wrote ${C.name}")
    $set N = "${R.items|length}"

default: main
`

// TestStoresAreSandboxed: every case sees an empty scratch data store and
// a copy of the seed skill directory; the runner's own stores (standing
// in for production) and the seed directory are never written.
func TestStoresAreSandboxed(t *testing.T) {
	dir := t.TempDir()
	prod, err := datastore.Open(filepath.Join(dir, "prod.db"), datastore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	seed := filepath.Join(dir, "skills")
	childSrc := "# Skill: child\n# Status: Approved\n\nmain:\n    emit(text=\"original\")\n\ndefault: main\n"
	if err := os.MkdirAll(seed, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seed, "child.skill.md"), []byte(childSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	f, info, ds := lint.Check("store.skill.md", []byte(storeSkill), &lint.Context{}, lint.Options{Rules: rulesets.All()})
	scratch := t.TempDir()
	newRunner := func() *eval.Runner { return &eval.Runner{Registry: &contract.Registry{Data: prod}} }
	rs := Run(context.Background(), f, info, newRunner, Options{Diagnostics: ds, SkillsDir: seed, TempDir: scratch})
	for _, r := range rs {
		if !r.Passed {
			t.Errorf("%s: %s", r.Name, messages(r))
		}
	}
	recs, err := prod.Query(context.Background(), contract.Query{Limit: 10})
	if err != nil || len(recs) != 0 {
		t.Errorf("production store got %d records (err %v)", len(recs), err)
	}
	if b, _ := os.ReadFile(filepath.Join(seed, "child.skill.md")); string(b) != childSrc {
		t.Errorf("seed skill was modified:\n%s", b)
	}
	if left, _ := os.ReadDir(scratch); len(left) != 0 {
		t.Errorf("scratch directories left behind: %d", len(left))
	}
}

func TestSidecarMock(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "w.skill.md")
	if got := SidecarMock(skill); got != "" {
		t.Errorf("SidecarMock without file = %q", got)
	}
	want := filepath.Join(dir, "w.mock.yaml")
	if err := os.WriteFile(want, []byte(probeMock), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := SidecarMock(skill); got != want {
		t.Errorf("SidecarMock = %q, want %q", got, want)
	}
	if _, err := LoadMock(want); err != nil {
		t.Errorf("LoadMock: %v", err)
	}
	bad := filepath.Join(dir, "bad.mock.yaml")
	os.WriteFile(bad, []byte("mocks:\n  - result: 1\n"), 0o644)
	if _, err := LoadMock(bad); err == nil {
		t.Error("LoadMock accepted an entry without op")
	}
}

// TestExamples runs the example skills under testdata/skilltest: every
// case there must pass.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../testdata/skilltest/*.skill.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f, info, ds := lint.Check(p, src, &lint.Context{}, lint.Options{Rules: rulesets.All()})
			if ps := Problems(f, ds); len(ps) > 0 {
				t.Fatalf("invalid # Tests: %+v", ps)
			}
			opts := Options{Diagnostics: ds, TempDir: t.TempDir(), SkillsDir: filepath.Dir(p)}
			if mp := SidecarMock(p); mp != "" {
				if opts.Mock, err = LoadMock(mp); err != nil {
					t.Fatal(err)
				}
			}
			rs := Run(context.Background(), f, info, func() *eval.Runner { return &eval.Runner{} }, opts)
			if len(rs) == 0 {
				t.Fatal("no cases ran")
			}
			for _, r := range rs {
				if !r.Passed {
					t.Errorf("%s:%d: %s: %s", p, r.Line, r.Name, messages(r))
				}
			}
		})
	}
}

func TestNilInputs(t *testing.T) {
	if rs := Run(context.Background(), nil, nil, nil, Options{}); rs != nil {
		t.Errorf("Run(nil) = %v", rs)
	}
	f := &ast.File{}
	if HasTests(f) || len(Cases(f)) != 0 {
		t.Error("empty file has tests")
	}
	src := "# Skill: x\n# Status: Approved\n# Tests:\n  - name: c\n    expect:\n      result_value: hi\n\nhi\n"
	f2, _, _ := lint.Check("x.skill.md", []byte(src), &lint.Context{}, lint.Options{Rules: rulesets.All()})
	rs := Run(context.Background(), f2, nil, nil, Options{TempDir: t.TempDir()})
	if len(rs) != 1 || !rs[0].Passed {
		t.Errorf("nil info/runner: %+v", rs)
	}
}
