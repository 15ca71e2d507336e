package filter

import (
	"math"
	"strings"
)

// count reads a line count argument; anything but a plain non-negative
// decimal is 0, and huge values saturate.
func count(arg string) int {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		if c < '0' || c > '9' {
			return 0
		}
		if n > (math.MaxInt32-9)/10 {
			return math.MaxInt32
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// The line family works on the text without its single terminal newline
// (so "a\nb\n" has two lines), splits on \n and strips one \r from the
// end of every line. It scans only as far as it needs and returns a
// substring of the input when no \r has to be removed.

func head(s string, n int) string {
	if n <= 0 {
		return ""
	}
	return firstLines(strings.TrimSuffix(s, "\n"), n)
}

// firstLines returns the first n (>0) lines of b.
func firstLines(b string, n int) string {
	pos := 0
	for range n {
		i := strings.IndexByte(b[pos:], '\n')
		if i < 0 {
			return stripCR(b)
		}
		pos += i + 1
	}
	return stripCR(b[:pos-1])
}

func tail(s string, n int) string {
	if n <= 0 {
		return ""
	}
	b := strings.TrimSuffix(s, "\n")
	end := len(b)
	for k := range n {
		i := strings.LastIndexByte(b[:end], '\n')
		if i < 0 {
			return stripCR(b)
		}
		if k == n-1 {
			return stripCR(b[i+1:])
		}
		end = i
	}
	return ""
}

// stripCR removes one \r from the end of every line of b.
func stripCR(b string) string {
	if strings.IndexByte(b, '\r') < 0 {
		return b
	}
	lines := strings.Split(b, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return strings.Join(lines, "\n")
}

// lineRange keeps lines M..N (1-based, inclusive) of s. A malformed range
// selects nothing; a start below 1 is treated as 1.
func lineRange(s, arg string) string {
	m, n, ok := parseRange(arg)
	if !ok {
		return ""
	}
	m = max(m, 1)
	if m > n {
		return ""
	}
	b := strings.TrimSuffix(s, "\n")
	pos := 0
	for range m - 1 {
		i := strings.IndexByte(b[pos:], '\n')
		if i < 0 {
			return ""
		}
		pos += i + 1
	}
	return firstLines(b[pos:], n-m+1)
}

func parseRange(arg string) (int, int, bool) {
	lo, hi, ok := strings.Cut(strings.TrimSpace(arg), "-")
	if !ok || !isDigits(strings.TrimSpace(lo)) || !isDigits(strings.TrimSpace(hi)) {
		return 0, 0, false
	}
	return count(lo), count(hi), true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
