package eval

import "github.com/skillscript/skillc/ast"

// malformed returns an error for the first statement the parser could not
// build completely (a BadStmt, a $set without a name, a "->" without a
// variable, ...). Such a skill never runs, even with --no-check: running a
// half-parsed statement would silently do something other than what the
// source says.
func malformed(f *ast.File) error {
	var bad ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if bad != nil {
			return false
		}
		if incomplete(n) {
			bad = n
			return false
		}
		return true
	})
	if bad == nil {
		return nil
	}
	return &RunError{Kind: KindInvalidSkill, Fatal: true, Range: bad.Span(),
		Msg: "the skill has a syntax error here (run skillc check for details); it cannot run"}
}

// incomplete reports whether n is a statement or part the parser left
// unfinished.
func incomplete(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BadStmt:
		return true
	case *ast.SetStmt:
		return n.Name == nil || n.Value == nil
	case *ast.AppendStmt:
		return n.Name == nil || n.Value == nil
	case *ast.DispatchStmt:
		return n.Tool == nil
	case *ast.CallStmt:
		return n.Name == nil
	case *ast.Binding:
		return n.Name == nil
	case *ast.Arg:
		return n.Key == nil || n.Value == nil
	case *ast.ForeachStmt:
		return n.Iter == nil || n.List == nil || n.Body == nil
	case *ast.CondClause:
		return n.Cond == nil || n.Body == nil
	case *ast.Target:
		return n.Name == nil || n.Body == nil
	case *ast.Subst:
		return !n.Legacy && (n.Root == nil || n.Bad != "")
	}
	return false
}
