package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"
)

// bodyIndent is the indentation step of a block in the `skillc fmt`
// layout.
const bodyIndent = 4

// onTypeFormatting answers textDocument/onTypeFormatting in target
// bodies: after a newline the new line is indented one step under a line
// ending with ":" (a target, if, elif, else, foreach) and like the
// previous statement otherwise; typing the ":" of "else:" or "elif …:"
// moves the line back to its if.
func (s *Server) onTypeFormatting(_ context.Context, p *protocol.DocumentOnTypeFormattingParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	none := []protocol.TextEdit{}
	lines := strings.Split(string(snap.src), "\n")
	n := int(p.Position.Line)
	if isSkillMD(snap.uri) || n >= len(lines) {
		return none, nil
	}
	want := -1
	switch p.Ch {
	case "\n":
		want = newLineIndent(lines, n)
	case ":":
		want = elseIndent(lines, n)
	}
	cur := leadingSpaces(lines[n])
	if want < 0 || want == cur {
		return none, nil
	}
	return []protocol.TextEdit{{
		Range:   protocol.Range{Start: protocol.Position{Line: uint32(n)}, End: protocol.Position{Line: uint32(n), Character: uint32(cur)}},
		NewText: strings.Repeat(" ", want),
	}}, nil
}

// newLineIndent returns the indentation of a new line n of a target body,
// or -1 outside one.
func newLineIndent(lines []string, n int) int {
	prev := n - 1
	for prev >= 0 && strings.TrimSpace(lines[prev]) == "" {
		prev--
	}
	if prev < 0 {
		return -1
	}
	text := strings.TrimSpace(lines[prev])
	indent := leadingSpaces(lines[prev])
	if strings.HasPrefix(text, "#") && indent == 0 {
		return -1 // a header: not a body
	}
	if strings.HasSuffix(text, ":") {
		if indent == 0 && strings.HasPrefix(text, "default:") {
			return -1
		}
		return indent + bodyIndent
	}
	if indent == 0 {
		if isTargetHeader(text) {
			return bodyIndent // "name: needs" opens a body too
		}
		return -1
	}
	return indent
}

// isTargetHeader reports whether a top-level line is "name: deps".
func isTargetHeader(text string) bool {
	name, _, ok := strings.Cut(text, ":")
	return ok && name != "default" && reName().MatchString(name)
}

// elseIndent returns the indentation of the "else:" or "elif …:" on line
// n: that of the nearest if or elif above it at a smaller indentation, or
// -1.
func elseIndent(lines []string, n int) int {
	text := strings.TrimSpace(lines[n])
	if text != "else:" && !(strings.HasPrefix(text, "elif ") && strings.HasSuffix(text, ":")) {
		return -1
	}
	cur := leadingSpaces(lines[n])
	for i := n - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		ind := leadingSpaces(lines[i])
		if t == "" {
			continue
		}
		if ind == 0 {
			return -1 // the target: a target-level else stays where it is
		}
		if ind < cur && (strings.HasPrefix(t, "if ") || strings.HasPrefix(t, "elif ")) && strings.HasSuffix(t, ":") {
			return ind
		}
	}
	return -1
}

// leadingSpaces counts the spaces starting a line.
func leadingSpaces(line string) int {
	return len(line) - len(strings.TrimLeft(line, " "))
}
