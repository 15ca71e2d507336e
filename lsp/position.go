package lsp

import (
	"bytes"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// utf16Len returns the number of UTF-16 code units of src. An invalid byte
// counts as one unit (editors show it as U+FFFD).
func utf16Len(src []byte) int {
	n := 0
	for len(src) > 0 {
		r, w := utf8.DecodeRune(src)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		src = src[w:]
	}
	return n
}

// lspPosition converts a byte offset into an LSP position.
func lspPosition(lines *ast.LineTable, off int) protocol.Position {
	src := lines.Src()
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	p := lines.Position(ast.PosOf(off))
	start := lines.LineStart(p.Line)
	return protocol.Position{Line: uint32(p.Line - 1), Character: uint32(utf16Len(src[start:off]))}
}

// byteOffset converts an LSP position into a byte offset, clamping a
// character past the end of the line to the line end and a line past the end
// of the text to the text end.
func byteOffset(lines *ast.LineTable, p protocol.Position) int {
	line := int(p.Line) + 1
	if line > lines.LineCount() {
		return len(lines.Src())
	}
	return offsetInLine(lines.Src(), lines.LineStart(line), lines.LineEnd(line), p.Character)
}

// byteOffsetIn is byteOffset for a text without a line table (an edit
// applies to a text once, so building a table for it would be waste).
func byteOffsetIn(src []byte, p protocol.Position) int {
	start := 0
	for l := uint32(0); l < p.Line; l++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return len(src)
		}
		start += i + 1
	}
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	if end > start && src[end-1] == '\r' {
		end--
	}
	return offsetInLine(src, start, end, p.Character)
}

// offsetInLine returns the byte offset of the UTF-16 column char in the
// line src[off:end], clamped to end.
func offsetInLine(src []byte, off, end int, char uint32) int {
	for units := 0; off < end; {
		r, w := utf8.DecodeRune(src[off:end])
		u := 1
		if r >= 0x10000 {
			u = 2
		}
		if units+u > int(char) {
			break
		}
		units += u
		off += w
	}
	return off
}

// lspRange converts a byte range into an LSP range.
func lspRange(lines *ast.LineTable, r ast.Range) protocol.Range {
	from, to := r.From.Offset(), r.To.Offset()
	if !r.From.IsValid() {
		from = 0
	}
	if to < from {
		to = from
	}
	return protocol.Range{Start: lspPosition(lines, from), End: lspPosition(lines, to)}
}

// astRange converts an LSP range into a byte range.
func astRange(lines *ast.LineTable, r protocol.Range) ast.Range {
	from, to := byteOffset(lines, r.Start), byteOffset(lines, r.End)
	if to < from {
		to = from
	}
	return ast.RangeOf(from, to)
}
