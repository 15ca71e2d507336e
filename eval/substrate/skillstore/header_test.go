package skillstore

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/oracle"
)

// oldHeaderLine is the pattern the store read headers with before issue
// 23; headerLine must split every line the same way.
var oldHeaderLine = regexp.MustCompile(`^# ([A-Za-z][A-Za-z0-9-]*):(?:[ \t]*)(.*?)\s*$`)

func checkHeaderLine(t *testing.T, line string) {
	t.Helper()
	key, value, ok := headerLine(line)
	m := oldHeaderLine.FindStringSubmatch(line)
	if ok != (m != nil) || ok && (key != m[1] || value != m[2]) {
		t.Errorf("headerLine(%q) = %q, %q, %v; the pattern gives %q", line, key, value, ok, m)
	}
}

// TestHeaderLine pins the hand-written header reader to the pattern it
// replaced, on the shapes that matter.
func TestHeaderLine(t *testing.T) {
	for _, line := range []string{
		"# Skill: a", "# Skill:a", "# Skill:   spaced  \t", "#Skill: a", "#  Skill: a", "# skill-2: x",
		"# Skill : a", "# 1Skill: a", "# Skill:", "# Skill: \f", "# Status: Approved\r", "# Description: a: b # c",
		"# ", "#", "", "  # Skill: a", "# Sk_ill: a", "# Skill:\tv\v", "# Skill: é ", "# Skill: \xff\xfe ",
	} {
		checkHeaderLine(t, line)
	}
	if h := Headers("Intro\n```skill\n# Skill: fenced\n# Status: Approved\n\n# Skill: second\nbody:\n# Type: data\n"); h["Skill"] != "fenced" || h["Status"] != "Approved" || h["Type"] != "" {
		t.Errorf("Headers = %v", h)
	}
}

// FuzzHeaderLine compares headerLine with the pattern it replaced, on
// lines (headerBlock splits at newlines, so a line never holds one).
func FuzzHeaderLine(f *testing.F) {
	for _, s := range []string{"# Skill: a", "# Status:\tDraft \r", "#Skill: x", "# Key-2:  v  v  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !strings.Contains(line, "\n") {
			checkHeaderLine(t, line)
		}
	})
}

// validNamePattern is the expression validName implements.
var validNamePattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)

var validNameSeeds = []string{"", "a", "A9", "_x", "9", ".a", "-a", "a.b-c_d", "a b", "a/b", "é", "a\n", "a.", "a-", "..", "a\x00"}

// validName decides as the expression does.
func TestValidName(t *testing.T) {
	oracle.Agree(t, "validName", validName, validNamePattern, validNameSeeds)
}

func FuzzValidName(f *testing.F) {
	oracle.Fuzz(f, "validName", validName, validNamePattern, validNameSeeds)
}
