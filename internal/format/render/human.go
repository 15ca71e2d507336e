package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/skillscript/skillc/ast"
)

// HumanOptions controls the human-readable format. The zero value prints
// plain text without source excerpts.
type HumanOptions struct {
	// Color enables ANSI colour. The caller decides (a terminal and no
	// NO_COLOR); the renderer never looks at the environment itself.
	Color bool
	// Context prints the source line under each diagnostic with a caret
	// underline beneath the range.
	Context bool
	// RuleDoc, when set, returns where the documentation of a rule is
	// ("" for none); it is printed under each diagnostic of that rule as
	// "  = help: ...".
	RuleDoc func(rule string) string
}

// Human writes ds for one file in the form
//
//	file:line:col: error[rule-id]: message
//	  12 | source line
//	     |      ^~~~
//	  note: file:line:col: related message
//	  fix: fix title
//
// The excerpt appears only with opts.Context. It returns the first write
// error.
func Human(w io.Writer, file string, src []byte, ds ast.Diagnostics, opts HumanOptions) error {
	return human(w, ast.FileDiagnostics{File: file, Src: src, Diags: ds}, opts, newStyles(opts.Color), newFileLines(nil))
}

// human writes the diagnostics of one result; files resolves related
// locations in other files.
func human(w io.Writer, r ast.FileDiagnostics, opts HumanOptions, st styles, files *fileLines) error {
	if len(r.Diags) == 0 {
		return nil
	}
	p := &humanPrinter{w: w, opts: opts, st: st, file: r.File, lt: ast.NewLineTable(r.Src), files: files}
	for _, d := range r.Diags {
		if d != nil {
			p.diagnostic(d)
		}
	}
	return p.err
}

// HumanAll writes the diagnostics of every result with [Human].
func HumanAll(w io.Writer, results []ast.FileDiagnostics, opts HumanOptions) error {
	files := newFileLines(results)
	st := newStyles(opts.Color)
	for _, r := range results {
		if err := human(w, r, opts, st, files); err != nil {
			return err
		}
	}
	return nil
}

// styles holds the colours of the human format; every style is a no-op when
// colour is off.
type styles struct {
	on                                     bool
	loc, err, warn, info, caret, note, fix *color.Color
}

// newStyles builds the styles, forcing colour on or off regardless of the
// global settings of the color package.
func newStyles(on bool) styles {
	mk := func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return styles{
		on:    on,
		loc:   mk(color.Bold),
		err:   mk(color.FgRed, color.Bold),
		warn:  mk(color.FgYellow, color.Bold),
		info:  mk(color.FgCyan, color.Bold),
		caret: mk(color.FgGreen, color.Bold),
		note:  mk(color.FgCyan),
		fix:   mk(color.FgGreen),
	}
}

// severity returns the style for s.
func (s styles) severity(sev ast.Severity) *color.Color {
	switch sev {
	case ast.Warning:
		return s.warn
	case ast.Info:
		return s.info
	}
	return s.err
}

// humanPrinter writes one file's diagnostics and remembers the first error.
type humanPrinter struct {
	w     io.Writer
	opts  HumanOptions
	st    styles
	file  string
	lt    *ast.LineTable
	files *fileLines
	err   error
}

// printf writes unless an earlier write failed.
func (p *humanPrinter) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// diagnostic writes the header line, the excerpt, the notes and the fixes of d.
func (p *humanPrinter) diagnostic(d *ast.Diagnostic) {
	sp := spanOf(p.lt, d.Range)
	sev := level(d.Severity)
	head := sev.String()
	if d.Rule != "" {
		head += "[" + d.Rule + "]"
	}
	p.printf("%s: %s: %s\n", p.st.loc.Sprint(p.location(sp)), p.st.severity(sev).Sprint(head), indentMessage(d.Message))
	if p.opts.Context && sp.valid() {
		p.excerpt(sp)
	}
	for _, r := range d.Related {
		file, lt := p.files.relatedPlace(p.file, p.lt, r)
		p.printf("  %s %s: %s\n", p.st.note.Sprint("note:"), location(file, spanOf(lt, r.Range)), indentMessage(r.Message))
	}
	for _, f := range d.Fixes {
		p.printf("  %s %s\n", p.st.fix.Sprint("fix:"), indentMessage(f.Title))
	}
	if p.opts.RuleDoc != nil && d.Rule != "" {
		if doc := p.opts.RuleDoc(d.Rule); doc != "" {
			p.printf("  %s %s\n", p.st.note.Sprint("= help:"), doc)
		}
	}
}

// location formats file:line:col, or just the file without a position.
func (p *humanPrinter) location(sp span) string { return location(p.file, sp) }

// location formats file:line:col, or just file without a position.
func location(file string, sp span) string {
	if !sp.valid() {
		return file
	}
	return fmt.Sprintf("%s:%d:%d", file, sp.Line, sp.Col)
}

// excerpt writes the first line of sp with a gutter and the caret line.
func (p *humanPrinter) excerpt(sp span) {
	text := sanitize(string(p.lt.Line(sp.Line)))
	num := strconv.Itoa(sp.Line)
	gutter := strings.Repeat(" ", len(num))
	p.printf(" %s | %s\n", num, text)
	p.printf(" %s | %s\n", gutter, p.st.caret.Sprint(underline(text, sp)))
}

// underline builds the caret line for sp on a line whose text is text: the
// characters before the range become spaces (tabs stay tabs so the caret
// lines up), then a caret and a tilde for each further character. A range
// that continues onto later lines is underlined to the end of the first.
func underline(text string, sp span) string {
	n := utf8.RuneCountInString(text)
	start := min(sp.Col-1, n)
	end := n
	if sp.EndLine == sp.Line {
		end = min(sp.EndCol-1, n)
	}
	var b strings.Builder
	i := 0
	for _, r := range text {
		if i >= start {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	b.WriteByte('^')
	if width := end - start; width > 1 {
		b.WriteString(strings.Repeat("~", width-1))
	}
	return b.String()
}

// indentMessage sanitizes a message and indents its continuation lines so
// that they cannot be mistaken for new diagnostics.
func indentMessage(s string) string {
	return strings.ReplaceAll(sanitizeMessage(s), "\n", "\n    ")
}
