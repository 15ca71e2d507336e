package skillrt

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillscript/skillc/internal/host/registry"
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

// catalogEntry renders one <skill> of <available_skills> with desc (already
// escaped); the location is left out when withLoc is false.
func catalogEntry(rec *registry.Record, desc string, withLoc bool) string {
	e := "<skill name=\"" + escape(rec.Name) + "\" kind=\"" + string(rec.Kind) + "\" origin=\"" + escape(rec.Origin) + "\">\n<description>" +
		desc + "</description>\n"
	if withLoc {
		e += "<location>" + escape(rec.Location) + "</location>\n"
	}
	return e + "</skill>\n"
}

// nameOnlyEntry renders a <skill> without description or location, for
// catalogs whose names alone fill the budget.
func nameOnlyEntry(rec *registry.Record) string {
	return "<skill name=\"" + escape(rec.Name) + "\" kind=\"" + string(rec.Kind) + "\" origin=\"" + escape(rec.Origin) + "\"/>\n"
}

// Notes the catalog carries when the budget changed it.
const (
	noteShortened = "<!-- descriptions shortened to fit the catalog budget; skills_load returns a skill's full description and location -->\n"
	noteTruncated = "<!-- the catalog is incomplete: a skill root holds more directories than the registry's scan limit -->\n"
	noteNamesOnly = "<!-- the skill names alone fill the catalog budget: descriptions left out; raise the budget or use skills_discover -->\n"
)

// minDescCap is the shortest per-skill description worth sending; below
// it the catalog lists names only.
const minDescCap = 40

// firstSentence returns the first sentence of s: up to the first '.',
// '!' or '?' followed by white space, or the first blank line.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s)-1; i++ {
		switch {
		case (s[i] == '.' || s[i] == '!' || s[i] == '?') && (s[i+1] == ' ' || s[i+1] == '\n'):
			return s[:i+1]
		case s[i] == '\n' && s[i+1] == '\n':
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

// shorten returns s escaped, cut (at a word boundary when one is near) so
// that the result with its ellipsis is at most limit bytes.
func shorten(s string, limit int) string {
	full := escape(s)
	if len(full) <= limit {
		return full
	}
	const ell = "…"
	var b strings.Builder
	lastSpace := -1
	for _, r := range s {
		e := escape(string(r))
		if b.Len()+len(e)+len(ell) > limit {
			break
		}
		if r == ' ' || r == '\n' {
			lastSpace = b.Len()
		}
		b.WriteString(e)
	}
	out := b.String()
	if lastSpace > len(out)/2 {
		out = out[:lastSpace]
	}
	return strings.TrimRight(out, " \n,;:") + ell
}

// fitDescriptions returns the escaped descriptions of recs shortened so
// that their total length is at most avail, or ok=false when even a
// minimal description per skill does not fit. Every skill is treated
// alike: the full text when all fit, else each first sentence, else
// first sentences cut at one per-skill cap (the largest that fits).
func fitDescriptions(recs []*registry.Record, avail int) (descs []string, shortened, ok bool) {
	descs = make([]string, len(recs))
	total := 0
	for i, rec := range recs {
		descs[i] = escape(rec.Description)
		total += len(descs[i])
	}
	if total <= avail {
		return descs, false, true
	}
	first := make([]string, len(recs))
	total = 0
	for i, rec := range recs {
		first[i] = firstSentence(rec.Description)
		total += len(escape(first[i]))
	}
	if total <= avail {
		for i := range recs {
			descs[i] = escape(first[i])
		}
		return descs, true, true
	}
	// the largest cap c with sum(min(len_i, c)) <= avail
	lo, hi := 0, 0
	for _, f := range first {
		hi = max(hi, len(escape(f)))
	}
	for lo < hi {
		c := (lo + hi + 1) / 2
		sum := 0
		for _, f := range first {
			sum += min(len(escape(f)), c)
		}
		if sum <= avail {
			lo = c
		} else {
			hi = c - 1
		}
	}
	if lo < minDescCap {
		return nil, true, false
	}
	for i := range recs {
		descs[i] = shorten(first[i], lo)
	}
	return descs, true, true
}

// AvailableSkills renders the <available_skills> block of recs (sorted by
// name, the registry's order) within budget bytes. Every skill is listed
// by name; when the budget is short the block gives up, in order, the
// locations (skills_load returns them), the description text past each
// first sentence, and then cuts every first sentence at one per-skill
// cap. When even that leaves under 40 bytes a skill, the block lists the
// names alone (and exceeds the budget only if the names do). It returns
// "" when recs is empty.
func AvailableSkills(recs []*registry.Record, budget int) string {
	if len(recs) == 0 {
		return ""
	}
	const open, close = "<available_skills>\n", "</available_skills>\n"
	var b strings.Builder
	b.WriteString(open)
	fixed := len(open) + len(close)
	withLoc, noLoc := fixed, fixed
	for _, rec := range recs {
		withLoc += len(catalogEntry(rec, "", true))
		noLoc += len(catalogEntry(rec, "", false))
	}
	descs, shortened, ok := fitDescriptions(recs, budget-withLoc)
	loc := ok && !shortened
	if !loc {
		descs, shortened, ok = fitDescriptions(recs, budget-noLoc-len(noteShortened))
		shortened = true
	}
	if !ok {
		b.WriteString(noteNamesOnly)
		for _, rec := range recs {
			b.WriteString(nameOnlyEntry(rec))
		}
		b.WriteString(close)
		return b.String()
	}
	if shortened {
		b.WriteString(noteShortened)
	}
	for i, rec := range recs {
		b.WriteString(catalogEntry(rec, descs[i], loc))
	}
	b.WriteString(close)
	return b.String()
}

// closingTag matches closing tags of the wrappers, which a skill body may
// not use to end its own wrapper early.
var closingTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)</(skill|active_skills|available_skills)\b`) })

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
		body := closingTag().ReplaceAllString(rec.Text(), "&lt;/$1")
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
	if catalog != "" && len(rt.reg.Truncated()) > 0 {
		b.WriteString(noteTruncated)
	}
	for _, n := range s.Revoked {
		b.WriteString("<!-- " + escape(n) + " -->\n")
	}
	b.WriteString(active)
	return b.String()
}
