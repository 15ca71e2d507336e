package lint

import (
	"regexp"
	"testing"
)

// reTargetLike is the expression targetLike implements.
var reTargetLike = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*:\s*$`)

var targetLikeSeeds = []string{
	"", ":", "a:", "a", "a: ", "a:\t\r\n\f", "a:\v", "a: b", "_x-9:", "-a:", "9a:", "a-:", "é:", "a::", " a:",
	"fetch:", "Fetch_2-x:  ", "a :", "a:\xff", "ab\xff:",
}

// targetLike decides as the expression does.
func TestTargetLike(t *testing.T) {
	for _, s := range targetLikeSeeds {
		if got, want := targetLike(s), reTargetLike.MatchString(s); got != want {
			t.Errorf("targetLike(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

func FuzzTargetLike(f *testing.F) {
	for _, s := range targetLikeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := targetLike(s), reTargetLike.MatchString(s); got != want {
			t.Errorf("targetLike(%q) = %v, the expression says %v", s, got, want)
		}
	})
}
