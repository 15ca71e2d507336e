package ast

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Severity orders diagnostics: errors block (tier 1), warnings need review
// (tier 2), infos are advice (tier 3).
type Severity int

// The severities, most severe first.
const (
	Error Severity = iota + 1
	Warning
	Info
)

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "unknown"
}

// ParseSeverity parses "error", "warning" or "info" (also "off" → 0, ok).
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return Error, true
	case "warning", "warn":
		return Warning, true
	case "info", "information", "hint":
		return Info, true
	case "off", "none", "disabled":
		return 0, true
	}
	return 0, false
}

// TextEdit replaces the source bytes in Range with NewText.
type TextEdit struct {
	Range   Range
	NewText string
}

// Fix is a machine-applicable change that resolves a diagnostic.
type Fix struct {
	Title string
	Edits []TextEdit
}

// Related points at another range that explains a diagnostic
// (the other half of a cycle, the first declaration of a duplicate).
// File names the file Range lies in when it is not the file of the
// diagnostic itself (another skill of the store, a connectors.json);
// empty means the same file.
type Related struct {
	File    string
	Range   Range
	Message string
}

// FileDiagnostics pairs the diagnostics of one file with its source, which
// turns their byte ranges into lines and columns. It is the one wrapper
// every front end reports through: skills, skillscript.config.json,
// connectors.json. Src is nil for problems without a file (File is then
// a description such as "environment") or a file that could not be read.
type FileDiagnostics struct {
	File  string
	Src   []byte
	Diags Diagnostics
}

// Diagnostic is the one problem type shared by every phase: the parser,
// the checker, the linter and the evaluator.
type Diagnostic struct {
	Severity Severity
	Rule     string // stable rule id, e.g. "undeclared-var"
	Message  string
	Range    Range
	Target   string // enclosing target name, if any
	Related  []Related
	Fixes    []Fix
	// File names the file or folder the diagnostic is about when a list
	// mixes files (the skill registry's problems: scan limits, name
	// collisions, shadowed skills); empty when the file is the one being
	// checked, which the enclosing FileDiagnostics names.
	File string `json:"File,omitempty"`
}

// Error implements error.
func (d *Diagnostic) Error() string {
	return fmt.Sprintf("%s[%s]: %s", d.Severity, d.Rule, d.Message)
}

// Diagnostics is a list of diagnostics; it implements error.
type Diagnostics []*Diagnostic

// Error joins the messages.
func (ds Diagnostics) Error() string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Error()
	}
	return strings.Join(parts, "\n")
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool { return ds.Count(Error) > 0 }

// Count returns the number of diagnostics of severity s.
func (ds Diagnostics) Count(s Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// Sort orders diagnostics by position, then severity, then rule.
// The sort is stable (slices.SortStableFunc: no reflection, no allocation).
func (ds Diagnostics) Sort() {
	slices.SortStableFunc(ds, func(a, b *Diagnostic) int {
		if a.Range.From != b.Range.From {
			return cmp.Compare(a.Range.From, b.Range.From)
		}
		if a.Severity != b.Severity {
			return cmp.Compare(a.Severity, b.Severity)
		}
		return strings.Compare(a.Rule, b.Rule)
	})
}

// Errorf builds an error diagnostic.
func Errorf(rule string, r Range, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Error, Rule: rule, Range: r, Message: fmt.Sprintf(format, args...)}
}

// Warnf builds a warning diagnostic.
func Warnf(rule string, r Range, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Warning, Rule: rule, Range: r, Message: fmt.Sprintf(format, args...)}
}

// Infof builds an info diagnostic.
func Infof(rule string, r Range, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Info, Rule: rule, Range: r, Message: fmt.Sprintf(format, args...)}
}

// WithFix attaches a single-edit fix and returns d.
func (d *Diagnostic) WithFix(title string, r Range, newText string) *Diagnostic {
	d.Fixes = append(d.Fixes, Fix{Title: title, Edits: []TextEdit{{Range: r, NewText: newText}}})
	return d
}

// ApplyEdits applies non-overlapping edits to src and returns the result.
// Overlapping edits after the first are skipped; the count applied is returned.
func ApplyEdits(src []byte, edits []TextEdit) ([]byte, int) {
	sorted := append([]TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Range.From < sorted[j].Range.From })
	var b strings.Builder
	last, n := 0, 0
	for _, e := range sorted {
		from, to := e.Range.From.Offset(), e.Range.To.Offset()
		if from < last || from < 0 || to > len(src) || to < from {
			continue
		}
		b.Write(src[last:from])
		b.WriteString(e.NewText)
		last = to
		n++
	}
	b.Write(src[last:])
	return []byte(b.String()), n
}
