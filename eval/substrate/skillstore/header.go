package skillstore

import (
	"fmt"
	"strings"

	"github.com/skillscript/skillc/eval/contract"
)

// Headers returns the first value of each column-0 "# Key: value" line of
// the skill's header block. Scanning starts after a ```skillscript or
// ```skill fence when the body has one and stops at the first line that is
// neither blank nor a '#' line.
func Headers(body string) map[string]string {
	out := map[string]string{}
	for _, line := range headerBlock(body) {
		if key, value, ok := headerLine(line); ok {
			if _, dup := out[key]; !dup {
				out[key] = value
			}
		}
	}
	return out
}

// headerLine splits a column-0 "# Key: value" line: exactly "# ", a key
// of a letter then letters, digits and '-', a colon right after it; the
// value is the rest without the blanks around it.
func headerLine(line string) (key, value string, ok bool) {
	rest, found := strings.CutPrefix(line, "# ")
	if !found || rest == "" || !isLetter(rest[0]) {
		return "", "", false
	}
	i := 1
	for i < len(rest) && (isLetter(rest[i]) || '0' <= rest[i] && rest[i] <= '9' || rest[i] == '-') {
		i++
	}
	if i >= len(rest) || rest[i] != ':' {
		return "", "", false
	}
	value = strings.TrimLeft(rest[i+1:], " \t")
	return rest[:i], strings.TrimRight(value, " \t\n\f\r"), true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func headerBlock(body string) []string {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "```skillscript" || t == "```skill" {
			lines = lines[i+1:]
			break
		}
	}
	for i, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(l, "#") {
			return lines[:i]
		}
	}
	return lines
}

// info is what a store derives from a body.
type info struct {
	Name, Status, Description, Type string
}

// describe reads the headers of body; the status defaults to Draft.
func describe(body string) (info, error) {
	h := Headers(body)
	in := info{Name: h["Skill"], Description: h["Description"], Type: h["Type"], Status: contract.StatusDraft}
	if s, ok := h["Status"]; ok {
		canon, ok := contract.CanonicalStatus(s)
		if !ok {
			return in, fmt.Errorf("invalid # Status: %q (want Draft, Approved or Disabled)", s)
		}
		in.Status = canon
	}
	return in, nil
}

// withStatus returns body with its # Status: line set to status, inserting
// one after # Skill: (or at the top) when there is none.
func withStatus(body, status string) string {
	lines := strings.Split(body, "\n")
	block := len(headerBlock(body))
	offset := fenceOffset(lines)
	insertAt := offset
	for i := offset; i < len(lines) && i < offset+block; i++ {
		if strings.HasPrefix(lines[i], "# Status:") {
			lines[i] = "# Status: " + status
			return strings.Join(lines, "\n")
		}
		if strings.HasPrefix(lines[i], "# Skill:") {
			insertAt = i + 1
		}
	}
	lines = append(lines[:insertAt], append([]string{"# Status: " + status}, lines[insertAt:]...)...)
	return strings.Join(lines, "\n")
}

func fenceOffset(lines []string) int {
	for i, l := range lines {
		if t := strings.TrimSpace(l); t == "```skillscript" || t == "```skill" {
			return i + 1
		}
	}
	return 0
}

// validName reports whether name is usable as a skill name (and so as a
// file name): letters, digits, '.', '_' and '-', not starting with '.' or
// '-' (the expression ^[A-Za-z0-9_][A-Za-z0-9._-]*$, by hand: compiling it
// at package init cost every skillc process, TestValidName compares).
func validName(name string) bool {
	if name == "" || name[0] == '.' || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

func checkName(name string) error {
	if !validName(name) || len(name) > 200 {
		return fmt.Errorf("invalid skill name %q: use letters, digits, '.', '_' and '-'", name)
	}
	return nil
}

// checkBody validates a body for storing under name and returns its info.
func checkBody(name, body string) (info, error) {
	if err := checkName(name); err != nil {
		return info{}, err
	}
	in, err := describe(body)
	if err != nil {
		return in, err
	}
	if in.Name != "" && in.Name != name {
		return in, fmt.Errorf("skill body declares # Skill: %s but is being stored as %q", in.Name, name)
	}
	return in, nil
}

func canonicalQueryStatus(s string) string {
	if s == "" {
		return ""
	}
	if c, ok := contract.CanonicalStatus(s); ok {
		return contract.StatusWord(c)
	}
	return s
}

func matches(m contract.SkillMeta, q contract.SkillQuery) bool {
	if st := canonicalQueryStatus(q.Status); st != "" && contract.StatusWord(m.Status) != st {
		return false
	}
	return q.Author == "" || m.Author == q.Author
}
