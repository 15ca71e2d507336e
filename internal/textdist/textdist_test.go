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
