package lint

import (
	"regexp"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/oracle"
)

// reTargetLike is the expression targetLike implements.
var reTargetLike = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*:\s*$`)

var targetLikeSeeds = []string{
	"", ":", "a:", "a", "a: ", "a:\t\r\n\f", "a:\v", "a: b", "_x-9:", "-a:", "9a:", "a-:", "é:", "a::", " a:",
	"fetch:", "Fetch_2-x:  ", "a :", "a:\xff", "ab\xff:",
}

// targetLike decides as the expression does.
func TestTargetLike(t *testing.T) {
	oracle.Agree(t, "targetLike", targetLike, reTargetLike, targetLikeSeeds)
}

func FuzzTargetLike(f *testing.F) {
	oracle.Fuzz(f, "targetLike", targetLike, reTargetLike, targetLikeSeeds)
}
