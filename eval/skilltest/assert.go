package skilltest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
)

// maxShown bounds how much of an output a failure message quotes.
const maxShown = 300

// compileAssertion checks one compile-time assertion against the
// mechanical render and the compile errors; it returns "" on success and
// otherwise what was expected and what was got.
func compileAssertion(e *ast.TestExpect, compiled string, errs []string) string {
	switch e.Kind {
	case "compiled_output_contains":
		if !strings.Contains(compiled, e.Value) {
			return fmt.Sprintf("expected the compiled output to contain %q; got %s", e.Value, shown(compiled))
		}
	case "compiled_output_does_not_contain":
		if strings.Contains(compiled, e.Value) {
			return fmt.Sprintf("expected the compiled output not to contain %q; got %s", e.Value, shown(compiled))
		}
	case "compile_error":
		if len(errs) == 0 {
			return fmt.Sprintf("expected a compile error containing %q; the skill compiled without errors", e.Value)
		}
		if !anyContainsFold(errs, e.Value) {
			return fmt.Sprintf("expected a compile error containing %q; got: %s", e.Value, strings.Join(errs, "; "))
		}
	}
	return ""
}

// runtimeAssertion checks one runtime assertion against the sandboxed
// run.
func (c *caseRun) runtimeAssertion(e *ast.TestExpect, res *eval.Result) string {
	switch e.Kind {
	case "target_else_executed":
		return c.elseExecuted(e.Value, res)
	case "op_fallback_used":
		return c.fallbackUsed(e.Value, res)
	case "result_value":
		want, got := strings.TrimSpace(e.Value), strings.TrimSpace(res.Outputs.Text)
		if want != got {
			return fmt.Sprintf("expected the result %q; got %q", want, got)
		}
	case "output_contains":
		if !strings.Contains(res.Outputs.Text, e.Value) {
			return fmt.Sprintf("expected the output to contain %q; got %s", e.Value, shown(res.Outputs.Text))
		}
	case "output_does_not_contain":
		if strings.Contains(res.Outputs.Text, e.Value) {
			return fmt.Sprintf("expected the output not to contain %q; got %s", e.Value, shown(res.Outputs.Text))
		}
	case "error_contains":
		return errorContains(e.Value, res)
	case "emits":
		return emits(e.Value, res.Emissions)
	default:
		return fmt.Sprintf("unknown assertion kind %q", e.Kind)
	}
	return ""
}

func (c *caseRun) elseExecuted(target string, res *eval.Result) string {
	target = strings.TrimSpace(target)
	if c.info.Targets[target] == nil {
		return fmt.Sprintf("the skill has no target %q (targets: %s)", target, listOrNone(sortedKeys(c.info.Targets)))
	}
	for _, t := range res.ElseExecuted {
		if t == target {
			return ""
		}
	}
	return fmt.Sprintf("expected the else: of target %q to run; else: ran for: %s", target, listOrNone(res.ElseExecuted))
}

func errorContains(want string, res *eval.Result) string {
	errs := runErrors(res.Errors)
	if len(errs) == 0 {
		return fmt.Sprintf("expected a run error containing %q; the run recorded no errors", want)
	}
	if !anyContainsFold(errs, want) {
		return fmt.Sprintf("expected a run error containing %q; got: %s", want, strings.Join(errs, "; "))
	}
	return ""
}

func emits(want string, emissions []string) string {
	for _, em := range emissions {
		if strings.Contains(em, want) {
			return ""
		}
	}
	if len(emissions) == 0 {
		return fmt.Sprintf("expected an emission containing %q; nothing was emitted", want)
	}
	quoted := make([]string, len(emissions))
	for i, em := range emissions {
		quoted[i] = shown(em)
	}
	return fmt.Sprintf("expected an emission containing %q; got %s", want, strings.Join(quoted, ", "))
}

// opRef is one op of a target with its 1-based index.
type opRef struct {
	index     int
	stmt      ast.Stmt
	line, col int
}

// targetOps numbers the ops of target in source order, 1-based: every
// statement other than if/foreach/needs, at any depth, the else: handler
// included.
func targetOps(f *ast.File, info *check.Info, target *ast.Target) []opRef {
	var out []opRef
	for _, op := range info.Ops {
		if op.Target != target || !isOp(op.Stmt) {
			continue
		}
		p := f.Lines.Position(op.Stmt.Span().From)
		out = append(out, opRef{stmt: op.Stmt, line: p.Line, col: p.Column})
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].line < out[j].line || out[i].line == out[j].line && out[i].col < out[j].col
	})
	for i := range out {
		out[i].index = i + 1
	}
	return out
}

func isOp(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.IfStmt, *ast.ForeachStmt, *ast.NeedsStmt, *ast.BadStmt:
		return false
	}
	return true
}

// parseOpRef splits "target.N" into the target name and the 1-based index
// (0 when only a target is named, meaning any op of it).
func parseOpRef(s string) (string, int, error) {
	s = strings.TrimSpace(s)
	i := strings.LastIndex(s, ".")
	if i < 0 {
		return s, 0, nil
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("want target.N with N the 1-based op number, got %q", s)
	}
	return s[:i], n, nil
}

func (c *caseRun) fallbackUsed(ref string, res *eval.Result) string {
	name, n, err := parseOpRef(ref)
	if err != nil {
		return err.Error()
	}
	t := c.info.Targets[name]
	if t == nil || c.f.Lines == nil {
		return fmt.Sprintf("the skill has no target %q (targets: %s)", name, listOrNone(sortedKeys(c.info.Targets)))
	}
	ops := targetOps(c.f, c.info, t)
	if n > len(ops) {
		return fmt.Sprintf("target %q has %d ops; there is no op %d", name, len(ops), n)
	}
	fired := c.firedIn(name, ops, res)
	for _, o := range fired {
		if n == 0 || o.index == n {
			return ""
		}
	}
	want := fmt.Sprintf("an op of target %q", name)
	if n > 0 {
		want = fmt.Sprintf("op %s.%d (line %d)", name, n, ops[n-1].line)
	}
	return fmt.Sprintf("expected the fallback of %s to fire; fallbacks fired: %s", want, c.describeFallbacks(res.Fallbacks))
}

// firedIn returns the ops of target whose fallback fired.
func (c *caseRun) firedIn(target string, ops []opRef, res *eval.Result) []opRef {
	var out []opRef
	for _, fb := range res.Fallbacks {
		if fb.Target != target || fb.Range == nil {
			continue
		}
		for _, o := range ops {
			if o.line == fb.Range.Line && o.col == fb.Range.Column {
				out = append(out, o)
			}
		}
	}
	return out
}

// describeFallbacks lists the fired fallbacks as
// "target.N (op, line L): reason".
func (c *caseRun) describeFallbacks(fbs []eval.Fallback) string {
	if len(fbs) == 0 {
		return "none"
	}
	var parts []string
	for _, fb := range fbs {
		line := 0
		if fb.Range != nil {
			line = fb.Range.Line
		}
		parts = append(parts, fmt.Sprintf("%s (%s, line %d): %s", c.fallbackRef(fb), fb.Op, line, fb.Reason))
	}
	return strings.Join(parts, "; ")
}

// fallbackRef names the op of a fired fallback as target.N, or just the
// target when the op cannot be located.
func (c *caseRun) fallbackRef(fb eval.Fallback) string {
	t := c.info.Targets[fb.Target]
	if fb.Range == nil || t == nil || c.f.Lines == nil {
		return fb.Target
	}
	for _, o := range targetOps(c.f, c.info, t) {
		if o.line == fb.Range.Line && o.col == fb.Range.Column {
			return fmt.Sprintf("%s.%d", fb.Target, o.index)
		}
	}
	return fb.Target
}

func anyContainsFold(list []string, sub string) bool {
	sub = strings.ToLower(sub)
	for _, s := range list {
		if strings.Contains(strings.ToLower(s), sub) {
			return true
		}
	}
	return false
}

// shown quotes s for a failure message, shortened when long.
func shown(s string) string {
	if s == "" {
		return "nothing (empty output)"
	}
	r := []rune(s)
	if len(r) > maxShown {
		return strconv.Quote(string(r[:maxShown])) + fmt.Sprintf(" (%d more characters)", len(r)-maxShown)
	}
	return strconv.Quote(s)
}
