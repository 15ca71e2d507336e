// Package oracle holds the test helpers for a hand-written matcher that
// replaced a regular expression: the expression stays in the tests as
// the oracle, and the matcher must decide every input as it does.
package oracle

import (
	"regexp"
	"testing"
)

// Check fails t when match and re disagree on s; name is the matcher's
// name in the message.
func Check(t testing.TB, name string, match func(string) bool, re *regexp.Regexp, s string) {
	t.Helper()
	if got, want := match(s), re.MatchString(s); got != want {
		t.Errorf("%s(%q) = %v, the expression says %v", name, s, got, want)
	}
}

// Agree checks match against re on every input.
func Agree(t testing.TB, name string, match func(string) bool, re *regexp.Regexp, inputs []string) {
	t.Helper()
	for _, s := range inputs {
		Check(t, name, match, re, s)
	}
}

// Fuzz seeds f with the inputs and fuzzes match against re.
func Fuzz(f *testing.F, name string, match func(string) bool, re *regexp.Regexp, seeds []string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Check(t, name, match, re, s) })
}
