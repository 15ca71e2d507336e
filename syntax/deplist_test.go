package syntax

import (
	"regexp"
	"testing"
)

// depListPattern is the expression isDepList implements: what a target
// header may carry after its colon.
const depListPattern = `^[ \t]*(needs[ \t]*:)?[ \t]*([A-Za-z_][A-Za-z0-9_-]*([ \t]*,?[ \t]*[A-Za-z_][A-Za-z0-9_-]*)*)?[ \t]*,?[ \t]*(#.*)?$`

var reDepListSpec = regexp.MustCompile(depListPattern)

var depListSeeds = []string{
	"", " ", "\t", "a", " a", "a b", "a,b", "a , b", "a,, b", ", a", ",", " , ", ",,", "a,", "a ,", "a, ,",
	"needs:", "needs: a, b", "needs :a", "needs\t: a", "needs", "needs a", "needsa: b", "needs: needs: a",
	"needs: ,", "a:b", "a-b_c9", "-a", "9a", "a 9", "a # c", "a#c", "# c", "#", "a # c\nd", "a\n", "\n",
	"a\r", "é", "a # é \xff", "needs: a # x", "a,#", ",#x", " needs : a , b , # c",
}

// isDepList decides as the expression does.
func TestIsDepList(t *testing.T) {
	for _, s := range depListSeeds {
		if got, want := isDepList(s), reDepListSpec.MatchString(s); got != want {
			t.Errorf("isDepList(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

func FuzzIsDepList(f *testing.F) {
	for _, s := range depListSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isDepList(s), reDepListSpec.MatchString(s); got != want {
			t.Errorf("isDepList(%q) = %v, the expression says %v", s, got, want)
		}
	})
}
