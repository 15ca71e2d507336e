package lint

import "testing"

// TestClosestTransposition pins that "did you mean" counts a swap of two
// adjacent letters as one edit (Damerau–Levenshtein): NAEM suggests NAME.
func TestClosestTransposition(t *testing.T) {
	for _, c := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"NAEM", []string{"NAME", "LIMIT"}, "NAME"},
		{"PORJECT", []string{"PROJECT", "OBJECT2"}, "PROJECT"},
		{"tirm", []string{"trim", "lines"}, "trim"},
		{"ZZZZ", []string{"NAME"}, ""},
	} {
		if got := closest(c.name, c.candidates); got != c.want {
			t.Errorf("closest(%q, %v) = %q, want %q", c.name, c.candidates, got, c.want)
		}
	}
}
