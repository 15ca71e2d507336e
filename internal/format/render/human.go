package render

import (
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
// Each output line is assembled in buf and written with one Write; a
// report of many findings allocates no formatting state per line
// (decision RN1).
type humanPrinter struct {
	w     io.Writer
	opts  HumanOptions
	st    styles
	file  string
	lt    *ast.LineTable
	files *fileLines
	err   error
	buf   []byte
}

// flush writes b (a line assembled in p.buf) unless an earlier write
// failed, and keeps b's storage for the next line.
func (p *humanPrinter) flush(b []byte) {
	if p.err == nil {
		_, p.err = p.w.Write(b)
	}
	p.buf = b[:0]
}

// paint returns text in style c; without colour it is text itself (the
// color package would copy it through fmt).
func (s styles) paint(c *color.Color, text string) string {
	if !s.on {
		return text
	}
	return c.Sprint(text)
}

// diagnostic writes the header line, the excerpt, the notes and the fixes of d.
func (p *humanPrinter) diagnostic(d *ast.Diagnostic) {
	sp := spanOf(p.lt, d.Range)
	sev := level(d.Severity)
	b := p.buf[:0]
	if p.st.on {
		head := sev.String()
		if d.Rule != "" {
			head += "[" + d.Rule + "]"
		}
		b = append(b, p.st.loc.Sprint(p.location(sp))...)
		b = append(b, ": "...)
		b = append(b, p.st.severity(sev).Sprint(head)...)
	} else {
		b = appendLocation(b, p.file, sp)
		b = append(b, ": "...)
		b = append(b, sev.String()...)
		if d.Rule != "" {
			b = append(b, '[')
			b = append(b, d.Rule...)
			b = append(b, ']')
		}
	}
	b = append(b, ": "...)
	b = append(b, indentMessage(d.Message)...)
	p.flush(append(b, '\n'))
	if p.opts.Context && sp.valid() {
		p.excerpt(sp)
	}
	for _, r := range d.Related {
		file, lt := p.files.relatedPlace(p.file, p.lt, r)
		b := append(p.buf[:0], "  "...)
		b = append(b, p.st.paint(p.st.note, "note:")...)
		b = append(b, ' ')
		b = appendLocation(b, file, spanOf(lt, r.Range))
		b = append(b, ": "...)
		b = append(b, indentMessage(r.Message)...)
		p.flush(append(b, '\n'))
	}
	for _, f := range d.Fixes {
		b := append(p.buf[:0], "  "...)
		b = append(b, p.st.paint(p.st.fix, "fix:")...)
		b = append(b, ' ')
		b = append(b, indentMessage(f.Title)...)
		p.flush(append(b, '\n'))
	}
	if p.opts.RuleDoc != nil && d.Rule != "" {
		if doc := p.opts.RuleDoc(d.Rule); doc != "" {
			b := append(p.buf[:0], "  "...)
			b = append(b, p.st.paint(p.st.note, "= help:")...)
			b = append(b, ' ')
			b = append(b, doc...)
			p.flush(append(b, '\n'))
		}
	}
}

// location formats file:line:col, or just the file without a position.
func (p *humanPrinter) location(sp span) string { return location(p.file, sp) }

// location formats file:line:col, or just file without a position.
func location(file string, sp span) string {
	return string(appendLocation(nil, file, sp))
}

// appendLocation appends file:line:col, or just file without a position.
func appendLocation(b []byte, file string, sp span) []byte {
	b = append(b, file...)
	if !sp.valid() {
		return b
	}
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(sp.Line), 10)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(sp.Col), 10)
}

// excerpt writes the first line of sp with a gutter and the caret line.
func (p *humanPrinter) excerpt(sp span) {
	text := sanitize(string(p.lt.Line(sp.Line)))
	b := append(p.buf[:0], ' ')
	b = strconv.AppendInt(b, int64(sp.Line), 10)
	width := len(b) - 1
	b = append(b, " | "...)
	b = append(b, text...)
	p.flush(append(b, '\n'))
	b = append(p.buf[:0], ' ')
	for range width {
		b = append(b, ' ')
	}
	b = append(b, " | "...)
	if p.st.on {
		b = append(b, p.st.caret.Sprint(underline(text, sp))...)
	} else {
		b = appendUnderline(b, text, sp)
	}
	p.flush(append(b, '\n'))
}

// underline builds the caret line for sp on a line whose text is text: the
// characters before the range become spaces (tabs stay tabs so the caret
// lines up), then a caret and a tilde for each further character. A range
// that continues onto later lines is underlined to the end of the first.
func underline(text string, sp span) string { return string(appendUnderline(nil, text, sp)) }

// appendUnderline appends underline(text, sp) to b.
func appendUnderline(b []byte, text string, sp span) []byte {
	n := utf8.RuneCountInString(text)
	start := min(sp.Col-1, n)
	end := n
	if sp.EndLine == sp.Line {
		end = min(sp.EndCol-1, n)
	}
	i := 0
	for _, r := range text {
		if i >= start {
			break
		}
		if r == '\t' {
			b = append(b, '\t')
		} else {
			b = append(b, ' ')
		}
		i++
	}
	b = append(b, '^')
	for range end - start - 1 {
		b = append(b, '~')
	}
	return b
}

// indentMessage sanitizes a message and indents its continuation lines so
// that they cannot be mistaken for new diagnostics.
func indentMessage(s string) string {
	return strings.ReplaceAll(sanitizeMessage(s), "\n", "\n    ")
}
