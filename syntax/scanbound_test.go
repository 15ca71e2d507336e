package syntax

import (
	"strings"
	"testing"
)

// substEndSlow and indexFromSlow are the byte-by-byte scans that substEnd
// and indexFrom replaced (issue 17); the fast versions must agree with
// them everywhere.
func substEndSlow(src []byte, p, end int, closer byte) (int, bool) {
	end = min(end, p+maxSubstLen)
	inQuote, depth := false, 0
	for i := p + 2; i < end; i++ {
		c := src[i]
		switch {
		case c == '\n':
			return 0, false
		case c == '\\' && i+1 < end && src[i+1] == '"':
			inQuote = !inQuote
			i++
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case closer == ')' && c == '(':
			depth++
		case c == closer && depth > 0:
			depth--
		case c == closer:
			return i + 1, true
		}
	}
	return 0, false
}

func indexFromSlow(src []byte, from, end int, s string) int {
	end = min(end, from+maxSubstLen)
	for i := from; i+len(s) <= end; i++ {
		if src[i] == '\n' {
			return -1
		}
		if string(src[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

// checkScans compares the fast and slow scans at every offset of src.
func checkScans(t *testing.T, src []byte) {
	t.Helper()
	for p := 0; p+1 < len(src); p++ {
		for _, closer := range []byte{'}', ')'} {
			e1, ok1 := substEnd(src, p, len(src), closer)
			e2, ok2 := substEndSlow(src, p, len(src), closer)
			if e1 != e2 || ok1 != ok2 {
				t.Fatalf("substEnd(%q, %d, %q) = %d, %v; the byte loop says %d, %v", src, p, closer, e1, ok1, e2, ok2)
			}
		}
		if a, b := indexFrom(src, p, len(src), "}}"), indexFromSlow(src, p, len(src), "}}"); a != b {
			t.Fatalf("indexFrom(%q, %d) = %d; the byte loop says %d", src, p, a, b)
		}
	}
}

var scanSeeds = []string{
	"${A}", "${A|f:\"}\"}", "$(echo (x) y)", "${\n}", "{{secret.X}}", "{{a\n}}", "${${${", "\\\"}\"}",
	"${" + strings.Repeat("x", maxSubstLen) + "}", "{{" + strings.Repeat("y", maxSubstLen-3) + "}}",
}

// TestScanBounds: the fast substitution scans agree with the byte loops.
func TestScanBounds(t *testing.T) {
	for _, s := range scanSeeds {
		checkScans(t, []byte(s))
	}
}

// FuzzScanBounds: the same on arbitrary input.
func FuzzScanBounds(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			src = src[:4096]
		}
		checkScans(t, src)
	})
}
