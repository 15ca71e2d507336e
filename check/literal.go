package check

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/shellwords"
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
	argv, err := shellwords.Tokenize(lit) // the runtime's tokenizer (internal/leaf/shellwords)
	if err != nil {
		return "", nil, false
	}
	return argv[0], first, argv[0] != ""
}

// ShellCommandWords tokenizes the command= of a structural shell op the
// way the runtime does: the literal text decides the words, and each
// substitution or secret marker is a hole inside the word it sits in.
// holes[i] is the text part behind hole i. ok is false for an unsafe op,
// an argv= op, or a command that is not text.
func ShellCommandWords(c *ast.CallStmt) (words []shellwords.Word, holes []ast.TextPart, ok bool, err error) {
	if c.Name == nil || c.Name.Name != "shell" || IsUnsafeShell(c) || c.Arg("argv") != nil {
		return nil, nil, false, nil
	}
	a := c.Arg("command")
	if a == nil {
		return nil, nil, false, nil
	}
	t := TextOf(a.Value)
	if t == nil {
		return nil, nil, false, nil
	}
	pieces := make([]shellwords.Piece, len(t.Parts))
	for i, p := range t.Parts {
		if l, isLit := p.(*ast.Lit); isLit {
			pieces[i] = shellwords.Piece{Text: l.Value}
		} else {
			pieces[i] = shellwords.Piece{Hole: true}
		}
	}
	words, err = shellwords.TokenizeTemplate(pieces)
	return words, t.Parts, true, err
}

// ShellArgv returns the argv of a structural or argv= shell op as far as
// it is known before the run: a word with a substitution in it is "". ok
// is false for unsafe shell and for an argv that is not a list.
func ShellArgv(c *ast.CallStmt) ([]string, bool) {
	if a := c.Arg("argv"); a != nil && c.Name != nil && c.Name.Name == "shell" {
		l, isList := a.Value.(*ast.ListLit)
		if !isList {
			return nil, false
		}
		argv := make([]string, len(l.Elems))
		for i, e := range l.Elems {
			argv[i], _ = LitString(e)
		}
		return argv, len(argv) > 0
	}
	words, _, ok, err := ShellCommandWords(c)
	if !ok || err != nil {
		return nil, false
	}
	argv := make([]string, len(words))
	for i, w := range words {
		argv[i], _ = w.Literal()
	}
	return argv, true
}
