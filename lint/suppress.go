package lint

import (
	"strings"

	"github.com/skillscript/skillc/ast"
)

const ruleUnusedSuppression = "unused-suppression"

// suppressMarker starts a suppression comment.
const suppressMarker = "skillc:ignore"

// suppression is one `# skillc:ignore a, b — reason` comment.
type suppression struct {
	comment *ast.Comment
	line    int      // the line it applies to
	rules   []string // rule ids, in order
	used    []bool   // per rule id
}

type suppressions []*suppression

// parseSuppressions finds the suppression comments of f. A trailing
// comment applies to its own line; a comment line applies to the next
// line that is neither blank nor a comment.
func parseSuppressions(f *ast.File) suppressions {
	var out suppressions
	var commentLines map[int]bool
	for _, c := range f.Comments {
		ids, ok := ParseSuppression(c.Text)
		if !ok {
			continue
		}
		line := f.Lines.Position(c.Pos()).Line
		if !c.Trailing {
			if commentLines == nil {
				commentLines = commentLineSet(f)
			}
			line = nextCodeLine(f, line, commentLines)
		}
		out = append(out, &suppression{comment: c, line: line, rules: ids, used: make([]bool, len(ids))})
	}
	return out
}

// ParseSuppression parses the text of a comment ("# skillc:ignore a, b —
// reason") and returns the rule ids; ok is false when the comment is not a
// suppression.
func ParseSuppression(text string) (ids []string, ok bool) {
	t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(text), "#"))
	if !strings.HasPrefix(t, suppressMarker) {
		return nil, false
	}
	t = t[len(suppressMarker):]
	if t != "" && t[0] != ' ' && t[0] != '\t' {
		return nil, false
	}
	for _, sep := range []string{"—", "–", " -- ", " - ", ":"} {
		if i := strings.Index(t, sep); i >= 0 {
			t = t[:i]
		}
	}
	for _, w := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if !isRuleID(w) {
			break
		}
		ids = append(ids, w)
	}
	return ids, true
}

func isRuleID(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func commentLineSet(f *ast.File) map[int]bool {
	set := map[int]bool{}
	for _, c := range f.Comments {
		if !c.Trailing {
			set[f.Lines.Position(c.Pos()).Line] = true
		}
	}
	return set
}

// nextCodeLine returns the first line after line that is neither blank nor
// a comment line.
func nextCodeLine(f *ast.File, line int, comments map[int]bool) int {
	n := f.Lines.LineCount()
	for l := line + 1; l <= n; l++ {
		if comments[l] || strings.TrimSpace(string(f.Lines.Line(l))) == "" {
			continue
		}
		return l
	}
	return line + 1
}

// apply drops the diagnostics a suppression covers and marks it used.
func (s suppressions) apply(f *ast.File, ds ast.Diagnostics) ast.Diagnostics {
	if len(s) == 0 {
		return ds
	}
	byLine := map[int][]*suppression{}
	for _, sp := range s {
		byLine[sp.line] = append(byLine[sp.line], sp)
	}
	out := ds[:0]
	for _, d := range ds {
		if d.Rule == ruleUnusedSuppression || !suppress(byLine[f.Lines.Position(d.Range.From).Line], d.Rule) {
			out = append(out, d)
		}
	}
	return out
}

func suppress(list []*suppression, rule string) bool {
	hit := false
	for _, sp := range list {
		for i, id := range sp.rules {
			if id == rule {
				sp.used[i] = true
				hit = true
			}
		}
	}
	return hit
}

// unused reports the rule ids of suppression comments that matched
// nothing; an id reg does not know is reported as unknown.
func (s suppressions) unused(sev ast.Severity, reg *Registry) ast.Diagnostics {
	var out ast.Diagnostics
	for _, sp := range s {
		if len(sp.rules) == 0 {
			d := &ast.Diagnostic{Severity: sev, Rule: ruleUnusedSuppression, Range: sp.comment.Range,
				Message: "skillc:ignore names no rule: write # skillc:ignore rule-id — reason"}
			out = append(out, d)
			continue
		}
		for i, id := range sp.rules {
			if sp.used[i] {
				continue
			}
			msg := "suppression of " + id + " is unused: no " + id + " diagnostic on the line it covers; remove it"
			if reg.Lookup(id) == nil {
				msg = "suppression names unknown rule " + id + didYouMean(closest(id, reg.IDs()))
			}
			out = append(out, &ast.Diagnostic{Severity: sev, Rule: ruleUnusedSuppression, Range: sp.comment.Range, Message: msg})
		}
	}
	return out
}
