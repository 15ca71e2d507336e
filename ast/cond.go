package ast

// CondOp is a comparison or logical operator.
type CondOp int

// The condition operators.
const (
	OpInvalid CondOp = iota
	OpEq             // ==
	OpNe             // !=
	OpLt             // <
	OpGt             // >
	OpLe             // <=
	OpGe             // >=
	OpIn             // in
	OpNotIn          // not in
	OpAnd            // and
	OpOr             // or
	OpAssign         // = (an error; kept so the fix can be offered)
)

var opNames = [...]string{"?", "==", "!=", "<", ">", "<=", ">=", "in", "not in", "and", "or", "="}

// String returns the operator's spelling.
func (o CondOp) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// IsNumeric reports whether o is a numeric comparison.
func (o CondOp) IsNumeric() bool { return o >= OpLt && o <= OpGe }

// CompareCond is "X op Y" for ==, !=, <, >, <=, >=, in, not in.
type CompareCond struct {
	Range
	X    Expr
	Op   CondOp
	OpRg Range
	Y    Expr
}

func (*CompareCond) aNode()    {}
func (*CompareCond) condNode() {}

// TruthyCond is a bare operand tested for truthiness.
type TruthyCond struct {
	Range
	X Expr
}

func (*TruthyCond) aNode()    {}
func (*TruthyCond) condNode() {}

// NotCond is "not X".
type NotCond struct {
	Range
	Not Range
	X   Cond
}

func (*NotCond) aNode()    {}
func (*NotCond) condNode() {}

// LogicalCond is "X and Y" / "X or Y".
type LogicalCond struct {
	Range
	X    Cond
	Op   CondOp
	OpRg Range
	Y    Cond
}

func (*LogicalCond) aNode()    {}
func (*LogicalCond) condNode() {}

// ParenCond is "(X)".
type ParenCond struct {
	Range
	X Cond
}

func (*ParenCond) aNode()    {}
func (*ParenCond) condNode() {}
