package check

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/shellwords"
)

// Literal facts about op arguments, shared by the linter (shell rules,
// the mutation gate) and the approval footprint, so that what a reviewer
// is shown is what the rules reason about.

// LitString returns the value of a literal string, bare word, number or
// boolean, and false for anything dynamic.
func LitString(e ast.Expr) (string, bool) {
	switch v := e.(type) {
	case *ast.StringLit:
		return v.Value.LitValue()
	case *ast.BareWord:
		return v.Value.LitValue()
	case *ast.NumberLit:
		return v.Raw, true
	case *ast.BoolLit:
		if v.Value {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// TextOf returns the Text of a string or bare word, or nil.
func TextOf(e ast.Expr) *ast.Text {
	switch v := e.(type) {
	case *ast.StringLit:
		return v.Value
	case *ast.BareWord:
		return v.Value
	}
	return nil
}

// IsUnsafeShell reports whether c is shell(..., unsafe=true).
func IsUnsafeShell(c *ast.CallStmt) bool {
	if c.Name == nil || c.Name.Name != "shell" {
		return false
	}
	a := c.Arg("unsafe")
	if a == nil {
		return false
	}
	v, ok := LitString(a.Value)
	return ok && strings.EqualFold(v, "true")
}

// ShellBinary returns the binary a shell op runs ("bash" for unsafe
// shell) and the node naming it; ok is false when it is dynamic or absent.
func ShellBinary(c *ast.CallStmt) (bin string, at ast.Node, ok bool) {
	if IsUnsafeShell(c) {
		return "bash", c.Arg("unsafe"), true
	}
	if a := c.Arg("argv"); a != nil {
		l, isList := a.Value.(*ast.ListLit)
		if !isList || len(l.Elems) == 0 {
			return "", nil, false
		}
		v, lit := LitString(l.Elems[0])
		return v, l.Elems[0], lit && v != ""
	}
	a := c.Arg("command")
	if a == nil {
		return "", nil, false
	}
	t := TextOf(a.Value)
	if t == nil || len(t.Parts) == 0 {
		return "", nil, false
	}
	first, isLit := t.Parts[0].(*ast.Lit)
	if !isLit {
		return "", nil, false
	}
	lit := first.Value
	if len(t.Parts) > 1 {
		lit = strings.TrimLeft(lit, " \t")
		i := strings.IndexAny(lit, " \t")
		if i < 0 {
			return "", nil, false // the binary name continues into a substitution
		}
		lit = lit[:i]
	}
	argv, err := shellwords.Tokenize(lit) // the runtime's tokenizer (internal/shellwords)
	if err != nil {
		return "", nil, false
	}
	return argv[0], first, argv[0] != ""
}
