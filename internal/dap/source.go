package dap

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

// stopLine is a line a breakpoint can bind to: a target's header or a
// statement.
type stopLine struct {
	line   int
	target bool // the line of a target header
}

// stopLines returns the lines of f where a run can stop, sorted.
func stopLines(f *ast.File) []stopLine {
	if f == nil || f.Lines == nil {
		return nil
	}
	seen := map[int]bool{}
	var out []stopLine
	add := func(p ast.Pos, target bool) {
		if !p.IsValid() {
			return
		}
		l := f.Lines.Position(p).Line
		if !seen[l] {
			seen[l] = true
			out = append(out, stopLine{line: l, target: target})
		}
	}
	var block func(b *ast.Block)
	block = func(b *ast.Block) {
		if b == nil {
			return
		}
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ast.NeedsStmt, *ast.BadStmt:
				continue
			case *ast.IfStmt:
				add(s.Pos(), false)
				for _, c := range s.Clauses {
					block(c.Body)
				}
				if s.Else != nil {
					block(s.Else.Body)
				}
				continue
			case *ast.ForeachStmt:
				add(s.Pos(), false)
				block(s.Body)
				continue
			}
			add(s.Pos(), false)
		}
	}
	for _, t := range f.Targets {
		add(t.Pos(), true)
		block(t.Body)
		if t.Else != nil {
			block(t.Else.Body)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// place binds a breakpoint requested on line to the first stop line at or
// after it; ok is false when there is none.
func place(lines []stopLine, line int) (stopLine, bool) {
	i := sort.Search(len(lines), func(i int) bool { return lines[i].line >= line })
	if i == len(lines) {
		return stopLine{}, false
	}
	return lines[i], true
}

// exprSkill is the skill an expression is parsed in: its text goes into a
// triple-quoted string ($set) or an if condition.
const exprSkill = "# Skill: dap-expression\n\nexpr:\n    %s\n\ndefault: expr\n"

// parseText parses s as skillscript text with ${…} substitutions.
func parseText(s string) (*ast.Text, error) {
	if strings.Contains(s, `"""`) || strings.ContainsAny(s, "\n\r") {
		return nil, fmt.Errorf(`an expression is one line without """`)
	}
	f, diags := syntax.Parse("expression", fmt.Appendf(nil, exprSkill, `$set DAP_EXPRESSION = """`+s+`"""`))
	if len(diags) > 0 {
		return nil, fmt.Errorf("cannot parse %q: %s", s, diags[0].Message)
	}
	if set, ok := firstStmt(f).(*ast.SetStmt); ok {
		if lit, ok := set.Value.(*ast.StringLit); ok && lit.Value != nil {
			return lit.Value, nil
		}
	}
	return nil, fmt.Errorf("cannot parse %q as text", s)
}

// parseCond parses s as a skillscript condition (what follows "if").
func parseCond(s string) (ast.Cond, error) {
	if strings.ContainsAny(s, "\n\r") {
		return nil, fmt.Errorf("a condition is one line")
	}
	f, diags := syntax.Parse("condition", fmt.Appendf(nil, exprSkill, "if "+s+":\n        emit(text=\"x\")"))
	if len(diags) > 0 {
		return nil, fmt.Errorf("cannot parse condition %q: %s", s, diags[0].Message)
	}
	if st, ok := firstStmt(f).(*ast.IfStmt); ok && len(st.Clauses) == 1 && st.Clauses[0].Cond != nil {
		return st.Clauses[0].Cond, nil
	}
	return nil, fmt.Errorf("cannot parse condition %q", s)
}

func firstStmt(f *ast.File) ast.Stmt {
	if f == nil || len(f.Targets) == 0 || f.Targets[0].Body == nil || len(f.Targets[0].Body.Stmts) == 0 {
		return nil
	}
	return f.Targets[0].Body.Stmts[0]
}

// chain returns the targets from t's dependent up to the goal: the path
// through needs: by which the goal reached t (t excluded), nearest first.
func chain(info *check.Info, t *ast.Target) []*ast.Target {
	if info == nil || t == nil || info.Graph.Goal == nil || info.Graph.Goal == t {
		return nil
	}
	prev := map[*ast.Target]*ast.Target{info.Graph.Goal: nil}
	queue := []*ast.Target{info.Graph.Goal}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == t {
			break
		}
		for _, d := range info.Graph.Deps[cur] {
			if _, ok := prev[d]; !ok {
				prev[d] = cur
				queue = append(queue, d)
			}
		}
	}
	if _, ok := prev[t]; !ok {
		return nil
	}
	var out []*ast.Target
	for p := prev[t]; p != nil; p = prev[p] {
		out = append(out, p)
	}
	return out
}
