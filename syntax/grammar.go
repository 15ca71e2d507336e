package syntax

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of one logical statement line, one condition, and
// one value. Token types come from the hand-written statement lexer in
// lex.go; these structs are converted to package ast nodes in convert.go.

type gLine struct {
	Stmts []*gStmt `parser:"@@+"`
}

type gStmt struct {
	Set      *gSet      `parser:"  @@"`
	Append   *gAppend   `parser:"| @@"`
	Dispatch *gDispatch `parser:"| @@"`
	Call     *gCall     `parser:"| @@"`
}

type gSet struct {
	Tokens []lexer.Token
	Kw     lexer.Token `parser:"@SetKw"`
	Name   lexer.Token `parser:"@Ident?"`
	Eq     lexer.Token `parser:"@Eq?"`
	Value  *gValue     `parser:"@@?"`
}

type gAppend struct {
	Tokens []lexer.Token
	Kw     lexer.Token `parser:"@AppendKw"`
	Name   lexer.Token `parser:"@Ident?"`
	Value  *gValue     `parser:"@@?"`
}

type gDispatch struct {
	Tokens  []lexer.Token
	Dollar  lexer.Token `parser:"@Dollar"`
	Target  lexer.Token `parser:"@(Dotted | Ident)?"`
	Items   []*gItem    `parser:"(@@ \",\"?)*"`
	Trailer []*gTrailer `parser:"@@*"`
}

type gCall struct {
	Tokens  []lexer.Token
	Name    lexer.Token `parser:"@Ident \"(\""`
	Items   []*gItem    `parser:"(@@ \",\"?)*"`
	Rparen  lexer.Token `parser:"@\")\""`
	Trailer []*gTrailer `parser:"@@*"`
}

type gItem struct {
	Arg   *gArg   `parser:"  @@"`
	Value *gValue `parser:"| @@"`
}

type gArg struct {
	Tokens    []lexer.Token
	Key       lexer.Token `parser:"(  @Ident"`
	Eq        lexer.Token `parser:"   @Eq"`
	Value     *gValue     `parser:"   @@?"`
	ColonKey  lexer.Token `parser:" | @ColonKey"`
	CValue    *gValue     `parser:"   @@?"`
	ColonWord lexer.Token `parser:" | @ColonWord )"`
}

type gTrailer struct {
	Bind     *gBind     `parser:"  @@"`
	Fallback *gFallback `parser:"| @@"`
}

type gBind struct {
	Tokens []lexer.Token
	Arrow  lexer.Token `parser:"@Arrow"`
	Name   lexer.Token `parser:"@Ident?"`
}

type gFallback struct {
	Tokens []lexer.Token
	Key    lexer.Token `parser:"\"(\" ( @ColonKey"`
	Value  *gValue     `parser:"      @@?"`
	Word   lexer.Token `parser:"    | @ColonWord ) \")\""`
}

type gValue struct {
	Tokens []lexer.Token
	Scalar lexer.Token `parser:"  @(String | SString | Triple | BadString | Number | Ident | Dotted | ColonWord | Word | Subst | Legacy | Secret)"`
	List   *gList      `parser:"| @@"`
	Object *gObject    `parser:"| @@"`
}

type gList struct {
	Tokens []lexer.Token
	Elems  []*gValue `parser:"\"[\" (@@ \",\"?)* \"]\""`
}

type gObject struct {
	Tokens  []lexer.Token
	Entries []*gEntry `parser:"\"{\" (@@ \",\"?)* \"}\""`
}

type gEntry struct {
	Tokens   []lexer.Token
	ColonKey lexer.Token `parser:"(  @ColonKey"`
	Key      lexer.Token `parser:" | @(String | SString | Ident | Number) \":\" )"`
	Value    *gValue     `parser:"@@?"`
}

// Conditions: or < and < not < comparison (comparison binds tightest, so
// "not X in L" is "not (X in L)").

type gCond struct {
	Tokens []lexer.Token
	Left   *gAnd      `parser:"@@"`
	Rest   []*gOrTail `parser:"@@*"`
}

type gOrTail struct {
	Op    lexer.Token `parser:"@\"or\""`
	Right *gAnd       `parser:"@@"`
}

type gAnd struct {
	Tokens []lexer.Token
	Left   *gNot       `parser:"@@"`
	Rest   []*gAndTail `parser:"@@*"`
}

type gAndTail struct {
	Op    lexer.Token `parser:"@\"and\""`
	Right *gNot       `parser:"@@"`
}

type gNot struct {
	Tokens []lexer.Token
	Not    lexer.Token `parser:"(  @\"not\""`
	Inner  *gNot       `parser:"   @@"`
	Prim   *gPrim      `parser:" | @@ )"`
}

type gPrim struct {
	Tokens []lexer.Token
	Paren  *gCond    `parser:"(  \"(\" @@ \")\""`
	Left   *gOperand `parser:" | @@"`
	Cmp    *gCmpTail `parser:"   @@? )"`
}

type gCmpTail struct {
	Tokens []lexer.Token
	Not    lexer.Token `parser:"@\"not\"?"`
	Op     lexer.Token `parser:"@(CmpOp | Eq | \"in\")"`
	Right  *gOperand   `parser:"@@"`
}

type gOperand struct {
	Tokens []lexer.Token
	Tok    lexer.Token `parser:"@(Subst | Legacy | String | SString | Number | BadString | Ident | Word | Dotted | ColonWord)"`
}

// The participle parsers are built on first use, not at start-up: a skill
// the fast matcher handles entirely (most of them) never needs them, and
// building them costs about a millisecond and 800 KB at init.
var (
	lineParser = sync.OnceValue(func() *participle.Parser[gLine] {
		return participle.MustBuild[gLine](participle.Lexer(stmtLexerDef{}), participle.UseLookahead(4))
	})
	condParser = sync.OnceValue(func() *participle.Parser[gCond] {
		return participle.MustBuild[gCond](participle.Lexer(stmtLexerDef{}), participle.UseLookahead(4))
	})
	valueParser = sync.OnceValue(func() *participle.Parser[gValue] {
		return participle.MustBuild[gValue](participle.Lexer(stmtLexerDef{}), participle.UseLookahead(4))
	})
)
