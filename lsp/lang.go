package lsp

import (
	"fmt"
	"strings"

	"github.com/skillscript/skillc/internal/leaf/lang"
)

// This file renders the language catalog (internal/leaf/lang) as the reference
// text the server shows in hovers, completions and signature help. It
// documents the language; it decides nothing (diagnostics come from the
// analyzer).

// signature renders o as a one-line signature.
func signature(o lang.OpSpec) string {
	var parts []string
	for _, p := range o.Params {
		s := p.Name + "=…"
		if !p.Required {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	bind := ""
	switch o.Binding {
	case lang.BindOptional:
		bind = " [-> R]"
	case lang.BindRequired:
		bind = " -> R"
	}
	if o.Class == lang.TypedContract {
		if o.Positional != "" {
			return "$ " + o.Name + " ${" + o.Positional + "}" + bind
		}
		return "$ " + o.Name + " " + strings.Join(parts, " ") + bind
	}
	return o.Name + "(" + strings.Join(parts, ", ") + ")" + bind
}

// opMarkdown renders the documentation of o.
func opMarkdown(o lang.OpSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "```skillscript\n%s\n```\n\n%s\n", signature(o), o.Summary)
	if len(o.Params) > 0 {
		b.WriteString("\n")
		for _, p := range o.Params {
			req := ""
			if p.Required {
				req = " (required)"
			}
			fmt.Fprintf(&b, "- `%s`%s: %s\n", p.Name, req, p.Doc)
		}
	}
	return b.String()
}

// snippet returns the insert text of o with its required kwargs.
func snippet(o lang.OpSpec) string {
	var args []string
	n := 1
	for _, p := range o.Params {
		if p.Required {
			args = append(args, p.Name+"="+renumber(p.Example, n))
			n++
		}
	}
	if o.Class == lang.TypedContract {
		if o.Positional != "" {
			return o.Name + " ${${1:" + o.Positional + "}} -> ${2:PARSED}"
		}
		return o.Name + " " + strings.Join(args, " ") + " -> ${" + fmt.Sprint(n) + ":R}"
	}
	s := o.Name + "(" + strings.Join(args, ", ") + ")"
	if o.Binding == lang.BindRequired {
		s += " -> ${" + fmt.Sprint(n) + ":R}"
	}
	return s
}

// renumber rewrites the first snippet placeholder of ex to tab stop n.
func renumber(ex string, n int) string {
	for _, pre := range []string{"${1", "${2", "${3", "${4", "${5"} {
		if i := strings.Index(ex, pre); i >= 0 {
			return ex[:i] + "${" + fmt.Sprint(n) + ex[i+len(pre):]
		}
	}
	return ex
}

// headerMarkdown renders the documentation of a header.
func headerMarkdown(h lang.HeaderDoc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**# %s:** %s\n", h.Kind, h.Summary)
	if len(h.Values) > 0 {
		fmt.Fprintf(&b, "\nValues: `%s`\n", strings.Join(h.Values, "`, `"))
	}
	if h.Example != "" {
		fmt.Fprintf(&b, "\n```skillscript\n%s\n```\n", h.Example)
	}
	return b.String()
}
