package skilltest

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/value"
)

// Options configure Run. The zero value runs every case with no mock, an
// empty sandbox skill store and no lint diagnostics.
type Options struct {
	// Diagnostics are the parse and lint diagnostics of the file. Their
	// error-tier entries (other than invalid-tests, which Problems reports)
	// are compile errors of every case.
	Diagnostics ast.Diagnostics
	// Filter selects cases by name; nil runs them all.
	Filter *regexp.Regexp
	// Mock, when set, answers connectors and llm (and the stores, when it
	// mocks their ops) in every case.
	Mock *MockFile
	// SkillsDir seeds each case's scratch skill store with a copy of its
	// *.skill.md files; "" starts the store empty.
	SkillsDir string
	// TempDir holds the per-case scratch directories; "" means the
	// system temporary directory.
	TempDir string
}

// CaseResult is the outcome of one test case.
type CaseResult struct {
	Name   string `json:"name"`
	Line   int    `json:"line"` // line of the case in the file
	Passed bool   `json:"passed"`
	// Failures lists every failed expectation; empty when Passed.
	Failures []Failure `json:"failures"`
	// Assertions is the number of assertions the case declares.
	Assertions int `json:"assertions"`
	// Compiled is the mechanical render the compiled_output_* assertions
	// looked at ("" when the case has none).
	Compiled string `json:"compiled_output,omitempty"`
	// Result is the sandboxed run the runtime assertions looked at (nil
	// when the case has none or did not get that far).
	Result   *eval.Result  `json:"result,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Failure is one failed expectation of a case.
type Failure struct {
	// Assertion is the assertion kind, or "" for a problem with the case
	// itself (an undeclared given: name, an unexpected compile error, an
	// unexpected run failure).
	Assertion string `json:"assertion,omitempty"`
	Line      int    `json:"line"`
	Message   string `json:"message"`
}

// Assertion phases: compile-time kinds look at the mechanical render,
// runtime kinds at a real (sandboxed) run.
var compileKinds = map[string]bool{
	"compiled_output_contains": true, "compiled_output_does_not_contain": true, "compile_error": true,
}

// HasTests reports whether f declares a # Tests: block.
func HasTests(f *ast.File) bool {
	return f != nil && f.Header(ast.HeaderTests) != nil
}

// Cases returns the cases of f's # Tests: block in file order.
func Cases(f *ast.File) []*ast.TestCase {
	if f == nil {
		return nil
	}
	var out []*ast.TestCase
	for _, h := range f.HeadersOf(ast.HeaderTests) {
		if h.Tests != nil {
			out = append(out, h.Tests.Cases...)
		}
	}
	return out
}

// Problems returns the invalid-tests diagnostics of ds as failures: a
// malformed # Tests: block is never silently skipped.
func Problems(f *ast.File, ds ast.Diagnostics) []Failure {
	var out []Failure
	for _, d := range ds {
		if d.Rule == "invalid-tests" {
			out = append(out, Failure{Line: lineOf(f, d.Range.From), Message: d.Message})
		}
	}
	return out
}

// Run runs the selected cases of f's # Tests: block. newRunner supplies
// the runner each case starts from (operator policy: shell and filesystem
// allowlists, secrets, limits); Run wires its stores and connectors to a
// per-case sandbox, so the runner's own registry is only consulted for
// connectors and models when there is no mock. Run never panics on bad
// input; a case that cannot be set up fails with the reason.
func Run(ctx context.Context, f *ast.File, info *check.Info, newRunner func() *eval.Runner, opts Options) []CaseResult {
	if f == nil {
		return nil
	}
	if info == nil {
		info = check.Check(f)
	}
	var out []CaseResult
	for _, tc := range Cases(f) {
		if opts.Filter != nil && !opts.Filter.MatchString(tc.Name) {
			continue
		}
		c := &caseRun{ctx: ctx, f: f, info: info, tc: tc, opts: &opts}
		out = append(out, c.run(newRunner))
	}
	return out
}

// caseRun is the state of one case.
type caseRun struct {
	ctx  context.Context
	f    *ast.File
	info *check.Info
	tc   *ast.TestCase
	opts *Options
	res  CaseResult
}

func (c *caseRun) run(newRunner func() *eval.Runner) CaseResult {
	start := time.Now()
	c.res = CaseResult{Name: c.tc.Name, Line: lineOf(c.f, c.tc.Range.From), Failures: []Failure{}, Assertions: len(c.tc.Expect)}
	c.execute(newRunner)
	c.res.Passed = len(c.res.Failures) == 0
	c.res.Duration = time.Since(start)
	return c.res
}

func (c *caseRun) execute(newRunner func() *eval.Runner) {
	if len(c.tc.Expect) == 0 {
		c.caseFailure("the case checks nothing: add assertions under expect:")
		return
	}
	inputs := c.inputs()
	if len(c.res.Failures) > 0 {
		return
	}
	var base *eval.Runner
	if newRunner != nil {
		base = newRunner()
	}
	if base == nil {
		base = &eval.Runner{}
	}
	blocked := false
	if c.needs(compileKinds, true) {
		blocked = !c.compilePhase(base, inputs)
	} else if errs := lintErrors(c.f, c.opts.Diagnostics); len(errs) > 0 {
		c.caseFailure("unexpected compile error: %s", summarize(errs))
		blocked = true
	}
	if !blocked && c.needs(compileKinds, false) {
		c.runtimePhase(base, inputs)
	}
}

// inputs turns given: into run inputs: null unsets a name, and a name
// the skill does not declare is a failure (it could never take effect).
func (c *caseRun) inputs() map[string]any {
	declared := declaredInputs(c.info)
	in := map[string]any{}
	for _, k := range sortedKeys(c.tc.Given) {
		v := c.tc.Given[k]
		if !declared[k] {
			c.caseFailure("given: %s is not declared in # Vars: or # Requires: (declared: %s)", k, listOrNone(sortedKeys(declared)))
			continue
		}
		if v != nil {
			in[k] = value.Normalize(v)
		}
	}
	return in
}

func declaredInputs(info *check.Info) map[string]bool {
	d := map[string]bool{}
	for name := range info.Declared {
		d[name] = true
	}
	for _, b := range info.Binds {
		if b.Kind == check.BindRequires {
			d[b.Name] = true
		}
	}
	return d
}

// needs reports whether the case has an assertion in (want true) or out
// of (want false) the set.
func (c *caseRun) needs(set map[string]bool, want bool) bool {
	for _, e := range c.tc.Expect {
		if set[e.Kind] == want {
			return true
		}
	}
	return false
}

func (c *caseRun) has(kind string) bool {
	for _, e := range c.tc.Expect {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// compilePhase renders the skill mechanically and checks the
// compile-time assertions. It reports false when the case cannot go on
// to run: the sandbox failed, or the skill has compile errors the case
// does not expect.
func (c *caseRun) compilePhase(base *eval.Runner, inputs map[string]any) bool {
	res, ok := c.sandboxed(base, inputs, true)
	if !ok {
		return false
	}
	c.res.Compiled = compiledOutput(res)
	errs := append(lintErrors(c.f, c.opts.Diagnostics), runErrors(res.Errors)...)
	errs = append(errs, missingVars(c.info, res, inputs)...)
	if len(errs) > 0 && !c.has("compile_error") {
		c.caseFailure("unexpected compile error: %s", summarize(errs))
		return false
	}
	for _, e := range c.tc.Expect {
		if compileKinds[e.Kind] {
			c.check(e, compileAssertion(e, c.res.Compiled, errs))
		}
	}
	return true
}

// runtimePhase runs the skill in the sandbox and checks the runtime
// assertions.
func (c *caseRun) runtimePhase(base *eval.Runner, inputs map[string]any) {
	res, ok := c.sandboxed(base, inputs, false)
	if !ok {
		return
	}
	c.res.Result = res
	if res.Failed() && !c.has("error_contains") && !c.has("compile_error") {
		c.caseFailure("the run failed: %s", summarize(runErrors(res.Errors)))
	}
	for _, e := range c.tc.Expect {
		if !compileKinds[e.Kind] {
			c.check(e, c.runtimeAssertion(e, res))
		}
	}
}

// sandboxed runs the skill once in a fresh sandbox.
func (c *caseRun) sandboxed(base *eval.Runner, inputs map[string]any, mechanical bool) (*eval.Result, bool) {
	sb := newSandbox(c.opts.TempDir, c.opts.SkillsDir)
	defer sb.close()
	r, err := sb.runner(base, c.opts.Mock)
	if err != nil {
		c.caseFailure("%v", err)
		return nil, false
	}
	r.Mechanical = mechanical
	res, err := safeRun(c.ctx, r, c.f, c.info, copyInputs(inputs))
	if err != nil {
		c.caseFailure("%v", err)
		return nil, false
	}
	return res, true
}

// safeRun runs the skill, turning an evaluator panic into an error so one
// broken skill cannot take the whole test run down.
func safeRun(ctx context.Context, r *eval.Runner, f *ast.File, info *check.Info, inputs map[string]any) (res *eval.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("internal error: the evaluator panicked: %v", p)
		}
	}()
	return r.Run(ctx, f, info, inputs)
}

// check records msg (when not empty) as a failure of assertion e.
func (c *caseRun) check(e *ast.TestExpect, msg string) {
	if msg != "" {
		c.res.Failures = append(c.res.Failures, Failure{Assertion: e.Kind, Line: lineOf(c.f, e.Range.From), Message: e.Kind + ": " + msg})
	}
}

func (c *caseRun) caseFailure(format string, args ...any) {
	c.res.Failures = append(c.res.Failures, Failure{Line: c.res.Line, Message: fmt.Sprintf(format, args...)})
}

// compiledOutput is what compiled_output_* assertions see: the canonical
// output of the mechanical run, then every emission that the canonical
// output does not already show, one per line.
func compiledOutput(res *eval.Result) string {
	parts := []string{res.Outputs.Text}
	if res.Outputs.Text != strings.Join(res.Emissions, "\n") {
		parts = append(parts, res.Emissions...)
	}
	return strings.TrimRight(strings.Join(parts, "\n"), "\n")
}

// lintErrors formats the error-tier diagnostics other than invalid-tests.
func lintErrors(f *ast.File, ds ast.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == ast.Error && d.Rule != "invalid-tests" {
			out = append(out, fmt.Sprintf("line %d: %s [%s]", lineOf(f, d.Range.From), d.Message, d.Rule))
		}
	}
	return out
}

// runErrors formats the errors of a result, nested child errors included.
func runErrors(errs []eval.ErrorInfo) []string {
	var out []string
	for _, e := range errs {
		s := e.Kind + ": " + e.Message
		if e.Target != "" {
			s += " (target " + e.Target + ")"
		}
		out = append(out, s)
		out = append(out, runErrors(e.Nested)...)
	}
	return out
}

// missingVars spells out, one per name, the required # Vars: the run
// found missing ("missing required variable: NAME").
func missingVars(info *check.Info, res *eval.Result, inputs map[string]any) []string {
	missing := false
	for _, e := range res.Errors {
		missing = missing || e.Kind == eval.KindMissingInput
	}
	if !missing {
		return nil
	}
	var out []string
	for _, name := range sortedKeys(info.Declared) {
		if d := info.Declared[name]; d.Default == nil && inputs[name] == nil {
			out = append(out, "missing required variable: "+name)
		}
	}
	return out
}

// summarize joins errors for a one-line message.
func summarize(errs []string) string {
	if len(errs) == 0 {
		return "(no error recorded)"
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return fmt.Sprintf("%s (and %d more: %s)", errs[0], len(errs)-1, strings.Join(errs[1:], "; "))
}

func lineOf(f *ast.File, p ast.Pos) int {
	if f == nil || f.Lines == nil || !p.IsValid() {
		return 0
	}
	return f.Lines.Position(p).Line
}

func copyInputs(in map[string]any) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func listOrNone(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	return strings.Join(ss, ", ")
}
