package ast

// Node is implemented by every syntax tree node.
type Node interface {
	Pos() Pos
	End() Pos
	Span() Range
	aNode()
}

// Stmt is a statement inside a target body, an else block or a nested block.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is a value: a literal, a list, an object, a substitution, a secret
// marker or a bare word.
type Expr interface {
	Node
	exprNode()
}

// Cond is an if/elif condition.
type Cond interface {
	Node
	condNode()
}

// Ident is a name with its range.
type Ident struct {
	Range
	Name string
}

func (*Ident) aNode() {}

// File is a parsed skillscript file.
type File struct {
	Range
	Name  string // file name as given to the parser
	Src   []byte
	Lines *LineTable

	// Fence is the range of the fenced ```skillscript block when the skill
	// is embedded in Markdown prose; otherwise it is the zero Range.
	Fence Range

	Headers   []*Header
	Targets   []*Target
	Defaults  []*DefaultDecl
	Templates []*Template // template regions (more than one is an error)
	Comments  []*Comment
	Bad       []*BadStmt // top-level lines that could not be parsed

	// NotText is set when the source is binary or not UTF-8; the file is
	// then empty apart from that one diagnostic, and later phases add none.
	NotText bool
}

func (*File) aNode() {}

// Comment is a comment line or a trailing " # ..." comment.
type Comment struct {
	Range
	Text     string // including the leading '#'
	Trailing bool   // after a statement on the same line
}

func (*Comment) aNode() {}

// DefaultDecl is "default: goal".
type DefaultDecl struct {
	Range
	Goal *Ident // nil when missing
}

func (*DefaultDecl) aNode() {}

// Template is one contiguous region of body template text.
type Template struct {
	Range
	Lines []*TemplateLine
}

func (*Template) aNode() {}

// TemplateLine is one physical line of template text (without the newline).
type TemplateLine struct {
	Range
	Text  *Text
	Blank bool
}

func (*TemplateLine) aNode() {}

// Target is a named block of statements: "name:" with an indented body.
type Target struct {
	Range
	Name        *Ident
	Colon       Pos
	Needs       []*Ident // dependencies from the header line and needs: lines
	NeedsInBody []*NeedsStmt
	Body        *Block
	Else        *ElseBlock // target-level error handler, or nil
}

func (*Target) aNode() {}

// ElseBlock is a target-level "else:" error handler.
type ElseBlock struct {
	Range
	Body *Block
}

func (*ElseBlock) aNode() {}

// Block is an indented sequence of statements.
type Block struct {
	Range
	Indent int // column of the block's statements (0-based, in bytes)
	Stmts  []Stmt
}

func (*Block) aNode() {}

// BadStmt stands where a statement could not be parsed. A diagnostic has
// been reported for it.
type BadStmt struct {
	Range
	Text string
}

func (*BadStmt) aNode()    {}
func (*BadStmt) stmtNode() {}

// NeedsStmt is a "needs: a, b" line inside a target body.
type NeedsStmt struct {
	Range
	Names []*Ident
}

func (*NeedsStmt) aNode()    {}
func (*NeedsStmt) stmtNode() {}

// SetStmt is "$set NAME = value".
type SetStmt struct {
	Range
	Keyword Range // "$set"
	Name    *Ident
	Eq      Pos
	Value   Expr // nil when missing
}

func (*SetStmt) aNode()    {}
func (*SetStmt) stmtNode() {}

// AppendStmt is "$append NAME value".
type AppendStmt struct {
	Range
	Keyword Range // "$append"
	Name    *Ident
	Value   Expr
}

func (*AppendStmt) aNode()    {}
func (*AppendStmt) stmtNode() {}

// Binding is the "-> NAME" trailer.
type Binding struct {
	Range
	Arrow Range
	Name  *Ident
}

func (*Binding) aNode() {}

// Fallback is the "(fallback: value)" trailer.
type Fallback struct {
	Range
	Keyword Range // "fallback"
	Value   Expr  // nil when empty
}

func (*Fallback) aNode() {}

// Arg is a keyword argument key=value. Colon is set for the legacy key:value
// spelling (diagnosed).
type Arg struct {
	Range
	Key   *Ident
	Eq    Range
	Colon bool
	Value Expr // nil when missing
}

func (*Arg) aNode() {}

// DispatchStmt is "$ conn.tool k=v ... -> R (fallback: v)" or the bare
// typed-contract form "$ llm prompt=..." (Connector nil).
type DispatchStmt struct {
	Range
	Dollar     Range
	Connector  *Ident // nil for the bare form
	Dot        Pos
	Tool       *Ident
	Args       []*Arg
	Positional []Expr // positional values ($ json_parse ${RAW}); others are diagnosed
	Bind       *Binding
	Fallback   *Fallback
}

func (*DispatchStmt) aNode()    {}
func (*DispatchStmt) stmtNode() {}

// CallStmt is a function-call op: emit(...), shell(...), execute_skill(...), ...
type CallStmt struct {
	Range
	Name       *Ident
	Lparen     Pos
	Rparen     Pos
	Args       []*Arg
	Positional []Expr // positional arguments (diagnosed: calls are all-kwargs)
	Bind       *Binding
	Fallback   *Fallback
}

func (*CallStmt) aNode()    {}
func (*CallStmt) stmtNode() {}

// Arg returns the argument with the given key, or nil.
func (c *CallStmt) Arg(key string) *Arg { return findArg(c.Args, key) }

// Arg returns the argument with the given key, or nil.
func (d *DispatchStmt) Arg(key string) *Arg { return findArg(d.Args, key) }

func findArg(args []*Arg, key string) *Arg {
	for _, a := range args {
		if a.Key != nil && a.Key.Name == key {
			return a
		}
	}
	return nil
}

// LegacyOpStmt is a retired op line: "? ...", "?? ...", "& ...", "> ...",
// "~ ...", "@ ...", "! ...". It is kept in the tree so rules can diagnose it.
type LegacyOpStmt struct {
	Range
	Op   string
	Rest string
	Bind *Binding
}

func (*LegacyOpStmt) aNode()    {}
func (*LegacyOpStmt) stmtNode() {}

// IfStmt is an if/elif/else chain.
type IfStmt struct {
	Range
	Clauses []*CondClause // the if clause, then elifs
	Else    *ElseBlock    // conditional else, or nil
}

func (*IfStmt) aNode()    {}
func (*IfStmt) stmtNode() {}

// CondClause is "if COND:" or "elif COND:" with its body.
type CondClause struct {
	Range
	Keyword Range // "if" or "elif"
	Cond    Cond  // nil when the condition failed to parse
	Body    *Block
}

func (*CondClause) aNode() {}

// ForeachStmt is "foreach X in ${LIST}:" with its body.
type ForeachStmt struct {
	Range
	Iter *Ident
	In   Range
	List Expr
	Body *Block
}

func (*ForeachStmt) aNode()    {}
func (*ForeachStmt) stmtNode() {}
