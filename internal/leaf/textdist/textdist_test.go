package textdist

import (
	"strings"
	"testing"
)

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"emit", "emitt", 1}, {"trim", "trmi", 2}, {"Status", "Status", 0}, {"url", "URL", 3},
	} {
		if got := Levenshtein(c.a, c.b); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Levenshtein(c.b, c.a); got != c.want {
			t.Errorf("not symmetric for %q, %q", c.a, c.b)
		}
	}
	long := strings.Repeat("x", 200)
	if Levenshtein(long, long+"y") < 1<<10 {
		t.Error("long inputs should not be compared")
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"NAEM", "NAME", 1}, {"trim", "trmi", 1}, {"ab", "ba", 1}, {"abc", "ca", 3},
		{"emit", "emitt", 1}, {"Status", "Status", 0}, {"url", "URL", 3}, {"teh", "the", 1},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("not symmetric for %q, %q", c.a, c.b)
		}
		if Distance(c.a, c.b) > Levenshtein(c.a, c.b) {
			t.Errorf("Distance(%q, %q) above Levenshtein", c.a, c.b)
		}
	}
	long := strings.Repeat("x", 200)
	if Distance(long, long+"y") < 1<<10 {
		t.Error("long inputs should not be compared")
	}
}

// FuzzDistance checks Distance against its defining bounds: symmetric, at
// most Levenshtein, at least the length difference, zero only for equal
// strings.
func FuzzDistance(f *testing.F) {
	for _, s := range [][2]string{{"NAEM", "NAME"}, {"kitten", "sitting"}, {"", "x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > maxLen || len(b) > maxLen {
			return
		}
		d := Distance(a, b)
		if d != Distance(b, a) || d > Levenshtein(a, b) || d < abs(len(a)-len(b)) || (d == 0) != (a == b) {
			t.Fatalf("Distance(%q, %q) = %d (Levenshtein %d)", a, b, d, Levenshtein(a, b))
		}
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
