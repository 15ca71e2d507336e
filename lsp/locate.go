package lsp

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// pathAt returns the nodes whose range contains off, outermost first. A
// node ending exactly at off counts, so the cursor just after a word
// still finds it.
func pathAt(root ast.Node, off int) []ast.Node {
	var path []ast.Node
	p := ast.PosOf(off)
	n := root
	for n != nil {
		path = append(path, n)
		var next ast.Node
		for _, c := range ast.Children(n) {
			r := c.Span()
			if r.IsValid() && r.From <= p && p <= r.To {
				next = c
				if p < r.To {
					break // prefer a child that strictly contains the cursor
				}
			}
		}
		n = next
	}
	return path
}

// innermost returns the last node of path of type T and its parent.
func innermost[T ast.Node](path []ast.Node) (T, ast.Node) {
	var zero T
	for i := len(path) - 1; i >= 0; i-- {
		if t, ok := path[i].(T); ok {
			var parent ast.Node
			if i > 0 {
				parent = path[i-1]
			}
			return t, parent
		}
	}
	return zero, nil
}

// refOf returns the reference record of a substitution.
func refOf(info *check.Info, s *ast.Subst) *check.Ref {
	for _, r := range info.Refs {
		if r.Subst == s {
			return r
		}
	}
	return nil
}

// opAt returns the innermost op statement on path, if any.
func opAt(path []ast.Node) ast.Stmt {
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.CallStmt, *ast.DispatchStmt:
			return n.(ast.Stmt)
		}
	}
	return nil
}

// text returns the source of r.
func (snap *snapshot) text(r ast.Range) string {
	from, to := r.From.Offset(), r.To.Offset()
	if from < 0 || to > len(snap.src) || to < from {
		return ""
	}
	return string(snap.src[from:to])
}

// line returns the 1-based line of a position.
func (snap *snapshot) line(p ast.Pos) int { return snap.lines.Position(p).Line }
