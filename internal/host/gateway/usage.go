package gateway

import (
	"regexp"
	"strings"
)

// maxUsageWords bounds the words the usage field indexes of one package.
var maxUsageWords = 300

// usageHeading matches the text of a heading that opens a usage
// section: "When to Use", "When to use this skill", "When to use vs
// alternatives", "Use cases", "Use when", "Triggers".
var usageHeading = regexp.MustCompile(`^(?:when to use\b|use when\b|use cases?\b|triggers?\b)|\bwhen to use (?:this|the) skill\b`)

// usageSections returns the words of a Markdown body's usage sections:
// each heading of level 1 to 3 whose text matches usageHeading opens a
// section that runs to the next heading of the same or a higher level
// (deeper headings stay inside it). Fenced code blocks
// are skipped; the heading's own words are not included (the headings
// field has them). Inside a section, each lead-in (a deeper heading, a
// bold line, a line ending with a colon) opens a sub-block, kept only
// when it says when to use the skill (usagePositive) and does not name
// when not to or what to use instead (usageNegative). At most maxWords
// words, in order.
func usageSections(body string, maxWords int) []string {
	var out []string
	fence := ""
	open := 0     // level of the open usage section, 0: none
	skip := false // the open section's current sub-block is skipped
	for _, line := range strings.Split(body, "\n") {
		if len(out) >= maxWords {
			break
		}
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if level, text, ok := heading(t); ok {
			if open > 0 && level <= open {
				open, skip = 0, false
			}
			if open == 0 {
				if level <= 3 && usageHeading.MatchString(strings.ToLower(text)) {
					open = level
				}
				continue
			}
		}
		if open > 0 {
			if leadIn(t) {
				// a sub-block: kept when it says when to use the skill,
				// skipped when it names other tools or something else
				l := strings.ToLower(t)
				skip = usageNegative.MatchString(l) || !usagePositive.MatchString(l)
				if skip {
					continue
				}
			}
			if !skip {
				out = append(out, words(t)...)
			}
		}
	}
	if len(out) > maxWords {
		out = out[:maxWords]
	}
	return out
}

// usageNegative matches a lead-in that opens the part of a usage
// section naming when not to use the skill or what to use instead: its
// words are other tools' vocabulary.
var usageNegative = regexp.MustCompile(`\binstead\b|\balternatives?\b|\bnot (?:to )?use\b|\bdon'?t use\b|\bavoid\b|\bwhen not\b|\bnot for\b`)

// usagePositive matches a lead-in that says when to use the skill.
var usagePositive = regexp.MustCompile(`\bus(?:e|ed|es|ing)\b|\bwhen\b|\bfor\b`)

// listItem reports whether a trimmed line is a Markdown list item.
func listItem(t string) bool {
	return strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") || len(t) > 2 && t[0] >= '0' && t[0] <= '9' && strings.Contains(t[:min(len(t), 4)], ". ")
}

// leadIn reports whether a trimmed line introduces a block: a heading,
// a bold line, or a line ending with a colon.
func leadIn(t string) bool {
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, "**") || !listItem(t) && !strings.HasPrefix(t, "|") && strings.HasSuffix(t, ":")
}

// heading reports whether a trimmed line is an ATX heading, with its
// level and text.
func heading(t string) (int, string, bool) {
	level := 0
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, "", false
	}
	return level, strings.TrimSpace(strings.TrimRight(t[level:], "# \t")), true
}
