// Package shellwords splits a structural shell command into argv, the way
// the evaluator runs shell(command="..."), the linter reads a command's
// binary and the language server rewrites a command into argv=[...].
//
// The tokenizer splits on unquoted white space. Single quotes keep
// everything literally; double quotes keep everything except that a
// backslash escapes ", \, $ and `; outside quotes a backslash is an
// ordinary character. Adjacent pieces join ('a'"b"c is one token abc), and
// an empty quoted pair is an empty token. An unterminated quote is an
// error, which is how the '${VAR}' quote trap fails loud instead of
// silently splitting an argument. Nothing is expanded: $, ;, | and the
// like are ordinary characters.
package shellwords

import "fmt"

// SyntaxError reports a command string the structural tokenizer rejects.
type SyntaxError struct {
	Offset int // byte offset of the problem in the command
	Msg    string
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("shell command: %s at offset %d", e.Msg, e.Offset)
}

// Tokenize splits a structural shell command into argv, honouring quotes
// (see the package doc). It fails on an unterminated quote and on a
// command with no tokens. It is TokenizeTemplate of a template without
// holes.
func Tokenize(command string) ([]string, error) {
	words, err := TokenizeTemplate([]Piece{{Text: command}})
	if err != nil {
		return nil, err
	}
	argv := make([]string, len(words))
	for i, w := range words {
		argv[i] = w.String()
	}
	return argv, nil
}
