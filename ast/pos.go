package ast

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// Pos is a byte offset into a source file plus one. The zero value, NoPos,
// means "no position"; use [Offset] and [PosOf] to convert.
type Pos int

// NoPos is the zero Pos: no position information.
const NoPos Pos = 0

// PosOf returns the Pos of byte offset off.
func PosOf(off int) Pos { return Pos(off + 1) }

// IsValid reports whether p carries a position.
func (p Pos) IsValid() bool { return p > 0 }

// Offset returns the byte offset of p, or -1 for NoPos.
func (p Pos) Offset() int { return int(p) - 1 }

// Range is a half-open byte range [From, To) of source text. Nodes embed it,
// which gives them their Pos and End methods.
type Range struct {
	From, To Pos
}

// Pos returns the start of r.
func (r Range) Pos() Pos { return r.From }

// End returns the end of r (exclusive).
func (r Range) End() Pos { return r.To }

// Moved returns r with its valid ends moved by delta bytes (an invalid
// end stays invalid).
func (r Range) Moved(delta int) Range {
	if r.From.IsValid() {
		r.From += Pos(delta)
	}
	if r.To.IsValid() {
		r.To += Pos(delta)
	}
	return r
}

// Span returns r itself; it lets any node be turned into a plain Range.
func (r Range) Span() Range { return r }

// IsValid reports whether r has both ends.
func (r Range) IsValid() bool { return r.From.IsValid() && r.To >= r.From }

// Contains reports whether the other range lies within r.
func (r Range) Contains(o Range) bool { return o.From >= r.From && o.To <= r.To }

// Join returns the smallest range covering r and o (ignoring invalid ranges).
func (r Range) Join(o Range) Range {
	if !r.IsValid() {
		return o
	}
	if !o.IsValid() {
		return r
	}
	if o.From < r.From {
		r.From = o.From
	}
	if o.To > r.To {
		r.To = o.To
	}
	return r
}

// RangeOf returns the range of byte offsets [start, end).
func RangeOf(start, end int) Range { return Range{PosOf(start), PosOf(end)} }

// Position is a human-facing location: 1-based line, 1-based column counted
// in characters (runes), and the 0-based byte offset.
type Position struct {
	Line, Column int
	Offset       int
}

// LineTable maps byte offsets to lines. Build it once per source with
// [NewLineTable].
type LineTable struct {
	src   []byte
	start []int // byte offset at which each line starts
}

// NewLineTable indexes the line starts of src.
func NewLineTable(src []byte) *LineTable {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
		starts = append(starts, i)
	}
	return &LineTable{src: src, start: starts}
}

// Src returns the indexed source.
func (t *LineTable) Src() []byte { return t.src }

// LineCount returns the number of lines (a trailing newline starts an empty last line).
func (t *LineTable) LineCount() int { return len(t.start) }

// LineStart returns the byte offset where 1-based line n starts.
func (t *LineTable) LineStart(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(t.start) {
		return len(t.src)
	}
	return t.start[n-1]
}

// LineEnd returns the byte offset of the end of 1-based line n, excluding the newline
// (and a preceding carriage return).
func (t *LineTable) LineEnd(n int) int {
	end := len(t.src)
	if n < len(t.start) {
		end = t.start[n] - 1
	}
	if end > t.LineStart(n) && t.src[end-1] == '\r' {
		end--
	}
	return end
}

// Line returns the text of 1-based line n without its line terminator.
func (t *LineTable) Line(n int) []byte { return t.src[t.LineStart(n):t.LineEnd(n)] }

// Position converts p to a line and character column. NoPos yields the zero Position.
func (t *LineTable) Position(p Pos) Position {
	if !p.IsValid() {
		return Position{}
	}
	off := p.Offset()
	if off > len(t.src) {
		off = len(t.src)
	}
	line := sort.Search(len(t.start), func(i int) bool { return t.start[i] > off })
	ls := t.start[line-1]
	col := utf8.RuneCount(t.src[ls:off]) + 1
	return Position{Line: line, Column: col, Offset: off}
}

// Offset converts a 1-based line and 1-based character column back to a byte offset,
// clamping to the line.
func (t *LineTable) Offset(line, col int) int {
	ls, le := t.LineStart(line), t.LineEnd(line)
	off := ls
	for i := 1; i < col && off < le; i++ {
		_, w := utf8.DecodeRune(t.src[off:le])
		off += w
	}
	return off
}
