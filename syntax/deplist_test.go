package syntax

import (
	"regexp"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/oracle"
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
	oracle.Agree(t, "isDepList", isDepList, reDepListSpec, depListSeeds)
}

func FuzzIsDepList(f *testing.F) {
	oracle.Fuzz(f, "isDepList", isDepList, reDepListSpec, depListSeeds)
}
