package syntax

import (
	"regexp"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/oracle"
)

// The expressions isDefaultLine and isElseLine implement.
var (
	reDefaultSpec = regexp.MustCompile(`^default[ \t]*:(.*)$`)
	reElseSpec    = regexp.MustCompile(`^else[ \t]*:[ \t]*(#.*)?$`)
)

var topLineSeeds = []string{
	"", "default", "default:", "default: t", "default : t", "default\t:t", "default:\n", "default: a\nb",
	"defaults: t", "default t", "default:\r", " default: t", "default: \xff", "Default: t", "default::",
	"else", "else:", "else :", "else\t:\t", "else: # c", "else:#", "else: x", "else: # c\nd", "else:\n",
	"elsewhere:", "else: \r", "else:  #\xff", "else # :", "else: ##", " else:",
}

// isDefaultLine and isElseLine decide as their expressions do.
func TestTopLineMatchers(t *testing.T) {
	for _, s := range topLineSeeds {
		checkTopLineMatchers(t, s)
	}
}

func checkTopLineMatchers(t *testing.T, s string) {
	t.Helper()
	oracle.Check(t, "isDefaultLine", isDefaultLine, reDefaultSpec, s)
	oracle.Check(t, "isElseLine", isElseLine, reElseSpec, s)
}

func FuzzTopLineMatchers(f *testing.F) {
	for _, s := range topLineSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTopLineMatchers)
}
