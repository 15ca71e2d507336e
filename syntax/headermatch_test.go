package syntax

import (
	"math/rand"
	"regexp"
	"testing"
)

// TestHeaderMatchAgrees holds headerMatch equal to the expression it
// replaced, on hand-picked lines and on random lines over the bytes that
// matter to it.
func TestHeaderMatchAgrees(t *testing.T) {
	re := regexp.MustCompile(`^#[ \t]*([A-Za-z][A-Za-z0-9_-]*)[ \t]*:`)
	lines := []string{"", "#", "# Skill: x", "#Skill:x", "#\t Skill \t: x", "# 1Skill: x", "# Sk ill: x",
		"# skill-name_2:", "# Skill", "  # Skill: x", "# Ünïcode: x", "#-: x", "# a:", "# a :b:c", "#:", "# Z\t:"}
	alphabet := []byte("#: \tAz09_-.é\n")
	rng := rand.New(rand.NewSource(25))
	for range 20000 {
		b := make([]byte, rng.Intn(12))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		if rng.Intn(2) == 0 && len(b) > 0 {
			b[0] = '#'
		}
		lines = append(lines, string(b))
	}
	matched := 0
	for _, line := range lines {
		want := re.FindSubmatchIndex([]byte(line))
		ks, ke, end, ok := headerMatch([]byte(line))
		if ok != (want != nil) {
			t.Fatalf("%q: headerMatch ok=%v, expression matched=%v", line, ok, want != nil)
		}
		if !ok {
			continue
		}
		matched++
		if got := []int{0, end, ks, ke}; got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
			t.Fatalf("%q: headerMatch %v, expression %v", line, got, want)
		}
		if !isHeaderLine(line) {
			t.Fatalf("%q: isHeaderLine on the string is false", line)
		}
	}
	if matched < 100 {
		t.Fatalf("only %d of %d lines were headers: the random lines test too little", matched, len(lines))
	}
}
