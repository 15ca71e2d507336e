package skillrt

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/skillscript/skillc/internal/registry"
)

// BaseRule is the instruction every composition starts with when any
// skill is available.
const BaseRule = `You can use skills. A skill's full instructions, files and scripts are available only after you call skills_load with its name; do not follow a skill you have not loaded. Skills of kind "skillscript" are programs: skills_load returns their contract and you run them with execute_skill instead of following them.`

// escape returns s escaped for XML text and attributes: the five
// markup characters become entities and characters XML cannot carry
// (control characters other than tab and newlines) become U+FFFD.
func escape(s string) string {
	if !strings.ContainsFunc(s, needsEscape) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	last := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		rep := ""
		switch {
		case r == '&':
			rep = "&amp;"
		case r == '<':
			rep = "&lt;"
		case r == '>':
			rep = "&gt;"
		case r == '"':
			rep = "&quot;"
		case r == '\'':
			rep = "&apos;"
		case needsEscape(r), r == utf8.RuneError && w == 1:
			rep = "\uFFFD"
		}
		if rep != "" {
			b.WriteString(s[last:i])
			b.WriteString(rep)
			last = i + w
		}
		i += w
	}
	b.WriteString(s[last:])
	return b.String()
}

// needsEscape reports whether r must be replaced in XML output.
func needsEscape(r rune) bool {
	return strings.ContainsRune("&<>\"'", r) || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF
}

// catalogEntry renders one <skill> of <available_skills>.
func catalogEntry(rec *registry.Record) string {
	return "<skill name=\"" + escape(rec.Name) + "\" kind=\"" + string(rec.Kind) + "\" origin=\"" + escape(rec.Origin) + "\">\n<description>" +
		escape(rec.Description) + "</description>\n<location>" + escape(rec.Location) + "</location>\n</skill>\n"
}

// AvailableSkills renders the <available_skills> block of recs (sorted by
// name, the registry's order) within budget bytes; skills past the budget
// are counted in a closing comment. It returns "" when recs is empty.
func AvailableSkills(recs []*registry.Record, budget int) string {
	if len(recs) == 0 {
		return ""
	}
	const open, close = "<available_skills>\n", "</available_skills>\n"
	var b strings.Builder
	b.WriteString(open)
	used := len(open) + len(close)
	for i, rec := range recs {
		e := catalogEntry(rec)
		if used+len(e) > budget {
			fmt.Fprintf(&b, "<!-- %d more skills not listed (catalog budget); ask for them by name -->\n", len(recs)-i)
			break
		}
		b.WriteString(e)
		used += len(e)
	}
	b.WriteString(close)
	return b.String()
}

// closingTag matches closing tags of the wrappers, which a skill body may
// not use to end its own wrapper early.
var closingTag = regexp.MustCompile(`(?i)</(skill|active_skills|available_skills)\b`)

// ActiveSkills renders the <active_skills> block of a session: each
// loaded package's body in load order (later ones take precedence), or ""
// when none is loaded. Wrapper closing tags inside a body are escaped.
func ActiveSkills(reg *registry.Registry, as []Active) string {
	var b strings.Builder
	for _, a := range as {
		rec, ok := reg.Lookup(a.ID)
		if !ok {
			continue
		}
		body := closingTag.ReplaceAllString(rec.Body, "&lt;/$1")
		fmt.Fprintf(&b, "<skill name=\"%s\" origin=\"%s\" digest=\"%s\" root_dir=\"%s\">\n%s\n</skill>\n",
			escape(rec.Name), escape(rec.Origin), rec.Digest, escape(rec.Root), strings.TrimRight(body, "\n"))
	}
	if b.Len() == 0 {
		return ""
	}
	return "<active_skills>\n" + b.String() + "</active_skills>\n"
}

// Compose returns the skill part of the top-level instructions for the
// next model call of a session: the base rule, <available_skills>, notices
// about skills unloaded because they changed, and <active_skills>. It is
// "" when no skill is available or active. The output is deterministic
// for a given registry and session state.
func (rt *Runtime) Compose(sessionID string) string {
	s := rt.takeState(sessionID)
	catalog := AvailableSkills(rt.reg.List(), rt.opts.catalogBudget())
	active := ActiveSkills(rt.reg, s.Active)
	if catalog == "" && active == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(BaseRule + "\n\n")
	b.WriteString(catalog)
	for _, n := range s.Revoked {
		b.WriteString("<!-- " + escape(n) + " -->\n")
	}
	b.WriteString(active)
	return b.String()
}
