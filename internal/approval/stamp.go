package approval

import "bytes"

// Stamp returns src with its # Status: line set to "# Status: " + status
// (for example "Approved v3:..."). The first column-0 # Status: line of
// the header region is replaced, keeping its line ending; without one,
// the line is inserted after the header region's # Skill: (or at the top
// of the fenced block, or of the file). Only a status line of the header
// region changes, so the signing input is unchanged.
func Stamp(src []byte, status string) []byte {
	line := "# Status: " + status
	from, hend := HeaderRegion(src) // a Markdown-embedded skill's headers follow its fence
	start, end, found := findLine(src[from:hend], func(l []byte) bool { return bytes.HasPrefix(l, []byte("# Status:")) })
	if found {
		return splice(src, from+start, from+end, line)
	}
	at := insertionPoint(src, from, hend)
	nl := lineEnding(src)
	if nl == "\r" {
		nl = "\n" // a bare "\r" would join the new line to the next one for the parser
	}
	switch {
	case at == len(src) && at > 0 && src[at-1] == '\r':
		// a bare "\r" ends src: a "\n" after it makes one terminator of
		// the two, so a blank line keeps the signing input
		return splice(src, at, at, "\n\n"+line)
	case at == len(src) && at > 0 && src[at-1] != '\n':
		return splice(src, at, at, nl+line) // after a last line without terminator
	}
	return splice(src, at, at, line+nl)
}

// insertionPoint is the offset where a missing # Status: line goes:
// after the # Skill: line of the header region src[from:hend] when a
// "\n" ends that line (or it is the last), else at the top of the region
// (of the fenced block, or of the file).
func insertionPoint(src []byte, from, hend int) int {
	if _, end, ok := findLine(src[from:hend], func(l []byte) bool { return bytes.HasPrefix(l, []byte("# Skill:")) }); ok {
		at := afterTerminator(src, from+end)
		if at == len(src) || src[at-1] == '\n' {
			return at
		}
	}
	return from
}

// findLine returns the byte range (without terminator) of the first line
// for which match holds.
func findLine(src []byte, match func([]byte) bool) (start, end int, ok bool) {
	for off := 0; off <= len(src); {
		e := off + lineLen(src[off:])
		if match(src[off:e]) {
			return off, e, true
		}
		if e >= len(src) {
			break
		}
		off = afterTerminator(src, e)
	}
	return 0, 0, false
}

// lineLen is the length of the first line of b, without its terminator.
func lineLen(b []byte) int {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		return i
	}
	return len(b)
}

// afterTerminator skips the line terminator at offset end.
func afterTerminator(src []byte, end int) int {
	switch {
	case end >= len(src):
		return len(src)
	case src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n':
		return end + 2
	default:
		return end + 1
	}
}

// lineEnding is the terminator of the first line of src ("\n" when none).
func lineEnding(src []byte) string {
	i := bytes.IndexAny(src, "\r\n")
	switch {
	case i < 0:
		return "\n"
	case src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n':
		return "\r\n"
	default:
		return string(src[i])
	}
}

func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}
