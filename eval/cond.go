package eval

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/value"
)

// cond evaluates an if/elif condition with short-circuit and/or.
func (x *run) cond(c ast.Cond, sc *scope) (bool, error) {
	switch c := c.(type) {
	case nil:
		return false, fatalf(KindInvalidSkill, "condition did not parse")
	case *ast.ParenCond:
		return x.cond(c.X, sc)
	case *ast.NotCond:
		ok, err := x.cond(c.X, sc)
		return !ok, err
	case *ast.LogicalCond:
		return x.logical(c, sc)
	case *ast.TruthyCond:
		v, err := x.operand(c.X, sc)
		if err != nil {
			return x.condError(err)
		}
		return value.Truthy(listView(v)), nil
	case *ast.CompareCond:
		ok, err := x.compare(c, sc)
		if err != nil {
			return x.condError(err)
		}
		return ok, nil
	}
	return false, fatalf(KindInvalidSkill, "unsupported condition")
}

// condError makes a failed condition false in mechanical mode.
func (x *run) condError(err error) (bool, error) {
	if x.mech && !classify(err).Fatal {
		return false, nil
	}
	return false, err
}

func (x *run) logical(c *ast.LogicalCond, sc *scope) (bool, error) {
	left, err := x.cond(c.X, sc)
	if err != nil {
		return false, err
	}
	switch {
	case c.Op == ast.OpAnd && !left:
		return false, nil
	case c.Op == ast.OpOr && left:
		return true, nil
	case c.Op != ast.OpAnd && c.Op != ast.OpOr:
		return false, fatalf(KindInvalidSkill, "unsupported logical operator %s", c.Op)
	}
	return x.cond(c.Y, sc)
}

// operand evaluates one side of a comparison; secrets are refused.
func (x *run) operand(e ast.Expr, sc *scope) (any, error) {
	return x.evalPlain(e, sc)
}

// operandText is value.String of the operand e: what == and != compare.
func (x *run) operandText(e ast.Expr, sc *scope) (string, error) {
	if t, ok := constText(e); ok {
		if err := x.checkNoSecretText(t); err != nil {
			return "", err
		}
		return t, nil
	}
	v, err := x.operand(e, sc)
	if err != nil {
		return "", err
	}
	return value.String(v), nil
}

// constText returns the text of a string literal without substitutions
// (what eval returns for it).
func constText(e ast.Expr) (string, bool) {
	if s, ok := e.(*ast.StringLit); ok && s.Value != nil && len(s.Value.Parts) == 1 {
		if l, ok := s.Value.Parts[0].(*ast.Lit); ok {
			return litValue(l), true
		}
	}
	return "", false
}

func (x *run) compare(c *ast.CompareCond, sc *scope) (bool, error) {
	if op := x.condOp(c); op == ast.OpIn || op == ast.OpNotIn {
		return x.membership(c, op, sc)
	}
	if c.Op == ast.OpEq || c.Op == ast.OpNe {
		// equality compares texts: a literal side is used as it is,
		// without boxing it into a value first
		a, err := x.operandText(c.X, sc)
		if err != nil {
			return false, err
		}
		b, err := x.operandText(c.Y, sc)
		if err != nil {
			return false, err
		}
		return (a == b) == (c.Op == ast.OpEq), nil
	}
	a, err := x.operand(c.X, sc)
	if err != nil {
		return false, err
	}
	b, err := x.operand(c.Y, sc)
	if err != nil {
		return false, err
	}
	switch c.Op {
	case ast.OpEq:
		return value.String(a) == value.String(b), nil
	case ast.OpNe:
		return value.String(a) != value.String(b), nil
	case ast.OpLt, ast.OpGt, ast.OpLe, ast.OpGe:
		return numeric(c.Op, a, b)
	}
	return false, fatalf(KindInvalidSkill, "%s is not a valid comparison; use ==", c.Op)
}

func numeric(op ast.CondOp, a, b any) (bool, error) {
	x, err := value.Number(a)
	if err != nil {
		return false, err
	}
	y, err := value.Number(b)
	if err != nil {
		return false, err
	}
	switch op {
	case ast.OpLt:
		return x < y, nil
	case ast.OpGt:
		return x > y, nil
	case ast.OpLe:
		return x <= y, nil
	}
	return x >= y, nil
}

// membership evaluates in / not in. An unresolved left side is false for
// both polarities; the right side must be a list or a JSON-array string.
func (x *run) membership(c *ast.CompareCond, op ast.CondOp, sc *scope) (bool, error) {
	a, err := x.operand(c.X, sc)
	if err != nil {
		if classify(err).Kind == KindUnresolved {
			return false, nil
		}
		return false, err
	}
	list, err := x.operand(c.Y, sc)
	if err != nil {
		return false, err
	}
	in, err := value.In(a, listView(list))
	if err != nil {
		return false, err
	}
	return in == (op == ast.OpIn), nil
}

// condOp returns c's operator. The parser currently reports "not in" as
// OpIn with the "not" outside the operator range, so the source between
// the left operand and the operator is consulted.
func (x *run) condOp(c *ast.CompareCond) ast.CondOp {
	if c.Op != ast.OpIn || c.X == nil {
		return c.Op
	}
	between := x.source(ast.Range{From: c.X.End(), To: c.OpRg.From})
	for _, w := range strings.Fields(between) {
		if w == "not" {
			return ast.OpNotIn
		}
	}
	return c.Op
}

// listView returns the items of an envelope object ({"items": [...]}, the
// shape $ data_read and many tools return) and any other value as it is.
// List operations (|length, |contains, |pluck, truthiness, the right side
// of in / not in, and foreach) see an envelope as its items, so the spec's
// "${ITEMS|length} > 5" and "if not ${MAILBOX}:" work on a data_read
// result as well as "${R.items|length}" does.
func listView(v any) any {
	if o, ok := v.(*value.Object); ok {
		if items, ok := o.Get("items"); ok {
			if list, ok := items.([]any); ok {
				return list
			}
		}
	}
	return v
}

// listFilter reports whether the filter name operates on lists.
func listFilter(name string) bool {
	return name == "length" || name == "contains" || name == "pluck"
}
