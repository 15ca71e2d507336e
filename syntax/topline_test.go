package syntax

import (
	"regexp"
	"testing"
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
	if got, want := isDefaultLine(s), reDefaultSpec.MatchString(s); got != want {
		t.Errorf("isDefaultLine(%q) = %v, the expression says %v", s, got, want)
	}
	if got, want := isElseLine(s), reElseSpec.MatchString(s); got != want {
		t.Errorf("isElseLine(%q) = %v, the expression says %v", s, got, want)
	}
}

func FuzzTopLineMatchers(f *testing.F) {
	for _, s := range topLineSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTopLineMatchers)
}
