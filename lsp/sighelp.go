package lsp

import (
	"context"
	"regexp"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// signatureHelp answers textDocument/signatureHelp inside the parentheses
// of a function-call op (and on the line of a typed-contract dispatch).
func (s *Server) signatureHelp(_ context.Context, p *protocol.SignatureHelpParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off := byteOffset(snap.lines, p.Position)
	o, args, ok := snap.callAt(off)
	active := -1
	if ok {
		active = activeParam(o, args, off)
	} else if o, active, ok = openCallBefore(snap.src, off); !ok {
		return nil, nil
	}
	sig := protocol.SignatureInformation{Label: signature(o),
		Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: o.Summary}}
	for _, prm := range o.Params {
		sig.Parameters = append(sig.Parameters, protocol.ParameterInformation{
			Label: protocol.String(prm.Name + "=…"), Documentation: protocol.String(prm.Doc)})
	}
	zero := uint32(0)
	help := &protocol.SignatureHelp{Signatures: []protocol.SignatureInformation{sig}, ActiveSignature: &zero}
	if active >= 0 {
		help.ActiveParameter = protocol.NewNullable(uint32(active))
	}
	return help, nil
}

// callAt returns the op whose argument list contains off.
func (snap *snapshot) callAt(off int) (lang.OpSpec, []*ast.Arg, bool) {
	path := pathAt(snap.File, off)
	p := ast.PosOf(off)
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.CallStmt:
			if n.Name == nil || p <= n.Lparen || (n.Rparen.IsValid() && p > n.Rparen) {
				continue
			}
			if o, ok := lang.Op(n.Name.Name); ok {
				return o, n.Args, true
			}
		case *ast.DispatchStmt:
			if n.Connector == nil && n.Tool != nil && p > n.Tool.To {
				if o, ok := lang.Op(n.Tool.Name); ok && len(o.Params) > 0 {
					return o, n.Args, true
				}
			}
		}
	}
	return lang.OpSpec{}, nil, false
}

// activeParam returns the index of the parameter being written at off: the
// kwarg whose range holds the cursor, else the first required one missing.
func activeParam(o lang.OpSpec, args []*ast.Arg, off int) int {
	p := ast.PosOf(off)
	for _, a := range args {
		if a.Key != nil && a.From <= p && p <= a.To {
			return paramIndex(o, a.Key.Name)
		}
	}
	given := map[string]bool{}
	for _, a := range args {
		if a.Key != nil {
			given[a.Key.Name] = true
		}
	}
	for i, prm := range o.Params {
		if !given[prm.Name] {
			return i
		}
	}
	return -1
}

// paramIndex returns the index of a parameter, or -1.
func paramIndex(o lang.OpSpec, name string) int {
	for i, prm := range o.Params {
		if prm.Name == name {
			return i
		}
	}
	return -1
}

// maxCallLines bounds how many lines before the cursor openCallBefore
// looks back for the start of an unclosed call.
const maxCallLines = 12

// openCallBefore finds the function-call op whose argument list is still
// open at off from the tokens before the cursor (as gopls does for an
// unclosed call): the parser has nothing to offer there, the line is a
// bad statement until its ")" is typed. It returns the op and the index of
// the parameter being written (the key of the argument under the cursor,
// else the first required parameter not yet given), or false.
func openCallBefore(src []byte, off int) (lang.OpSpec, int, bool) {
	if off > len(src) {
		off = len(src)
	}
	start := off
	for lines := 0; lines < maxCallLines; lines++ {
		start = lineStartBefore(src, start)
		if o, args, ok := openCall(string(src[start:off])); ok {
			return o, activeParamOf(o, args), true
		}
		if start == 0 {
			break
		}
		start-- // the newline ending the previous line
	}
	return lang.OpSpec{}, -1, false
}

// lineStartBefore returns the offset of the start of the line holding off.
func lineStartBefore(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// reOpName is the name before an open parenthesis.
var reOpName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([A-Za-z_]\w*)\s*$`) })

// reArgKey is the key of an argument being written.
var reArgKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*=`) })

// openCall scans text (which ends at the cursor) for the innermost
// parenthesis left open outside strings, and returns the op named before
// it and the arguments written after it, split at top-level commas.
func openCall(text string) (lang.OpSpec, []string, bool) {
	var opens []int
	eachUnquoted(text, func(i int, c byte) {
		switch c {
		case '(':
			opens = append(opens, i)
		case ')':
			if len(opens) > 0 {
				opens = opens[:len(opens)-1]
			}
		}
	})
	for j := len(opens) - 1; j >= 0; j-- {
		m := reOpName().FindStringSubmatch(text[:opens[j]])
		if m == nil {
			continue
		}
		o, ok := lang.Op(m[1])
		if !ok || len(o.Params) == 0 {
			continue
		}
		return o, splitArgs(text[opens[j]+1:]), true
	}
	return lang.OpSpec{}, nil, false
}

// splitArgs splits an argument list at the commas outside strings and
// brackets; the last element is the argument being written.
func splitArgs(s string) []string {
	var out []string
	depth, last := 0, 0
	eachUnquoted(s, func(i int, c byte) {
		switch {
		case strings.IndexByte("([{", c) >= 0:
			depth++
		case strings.IndexByte(")]}", c) >= 0:
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[last:i])
			last = i + 1
		}
	})
	return append(out, s[last:])
}

// eachUnquoted calls f with the offset and byte of every character of s
// outside a "..." or '...' string (a backslash inside a string escapes
// the next byte).
func eachUnquoted(s string, f func(i int, c byte)) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		default:
			f(i, c)
		}
	}
}

// activeParamOf returns the parameter being written in args (see
// openCallBefore), or -1.
func activeParamOf(o lang.OpSpec, args []string) int {
	if m := reArgKey().FindStringSubmatch(args[len(args)-1]); m != nil {
		return paramIndex(o, m[1])
	}
	given := map[string]bool{}
	for _, a := range args[:len(args)-1] {
		if m := reArgKey().FindStringSubmatch(a); m != nil {
			given[m[1]] = true
		}
	}
	for i, prm := range o.Params {
		if !given[prm.Name] && prm.Required {
			return i
		}
	}
	for i, prm := range o.Params {
		if !given[prm.Name] {
			return i
		}
	}
	return -1
}
