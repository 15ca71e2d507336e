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

import (
	"fmt"
	"strings"
)

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
// command with no tokens.
func Tokenize(command string) ([]string, error) {
	var (
		argv    []string
		cur     strings.Builder
		inToken bool
	)
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inToken {
				argv = append(argv, cur.String())
				cur.Reset()
				inToken = false
			}
		case c == '\'':
			end := strings.IndexByte(command[i+1:], '\'')
			if end < 0 {
				return nil, &SyntaxError{Offset: i, Msg: "unterminated ' quote"}
			}
			cur.WriteString(command[i+1 : i+1+end])
			i += end + 1
			inToken = true
		case c == '"':
			next, err := doubleQuoted(command, i, &cur)
			if err != nil {
				return nil, err
			}
			i = next
			inToken = true
		default:
			cur.WriteByte(c)
			inToken = true
		}
	}
	if inToken {
		argv = append(argv, cur.String())
	}
	if len(argv) == 0 {
		return nil, &SyntaxError{Offset: 0, Msg: "empty command"}
	}
	return argv, nil
}

// doubleQuoted copies the double-quoted piece starting at command[open]
// into cur and returns the index of its closing quote.
func doubleQuoted(command string, open int, cur *strings.Builder) (int, error) {
	for i := open + 1; i < len(command); i++ {
		c := command[i]
		switch {
		case c == '"':
			return i, nil
		case c == '\\' && i+1 < len(command) && strings.IndexByte("\"\\$`", command[i+1]) >= 0:
			cur.WriteByte(command[i+1])
			i++
		default:
			cur.WriteByte(c)
		}
	}
	return 0, &SyntaxError{Offset: open, Msg: `unterminated " quote`}
}
