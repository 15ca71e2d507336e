package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	wsenv "github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/syntax"
)

// DefaultAnalyzer is the analyzer a server uses when Options.Analyzer is
// nil: the linter (parser, checker and every rule) in the document's
// environment, as `skillc check` runs it. The tree and the checker's facts
// are the compiled unit of the source (workspace.Parse): a text already
// compiled, by this server or by a cross-skill look-up, is not parsed
// again.
func DefaultAnalyzer(name string, src []byte, env *Env) Analysis {
	u := wsenv.Parse(name, src)
	return analyzeParsed(name, u.File, u.Info, u.ParsedCopy(), env, nil, nil)
}

// analyzeParsed is DefaultAnalyzer after the parse: the checker (unless
// info, the facts of a compiled unit, is given) and every rule over f,
// whose parser diagnostics are parsed. stop, when not nil, ends the rules
// early (lint.Options.Stop).
func analyzeParsed(name string, f *ast.File, info *check.Info, parsed ast.Diagnostics, env *Env, stop func() bool, reuse *lint.Reuse) Analysis {
	var ctx lint.Context
	var opts lint.Options
	if env != nil && env.Lint != nil {
		ctx, opts = *env.Lint, env.LintOptions
	}
	ctx.FilePath = name
	opts.Stop = stop
	opts.Reuse = reuse
	if opts.Rules == nil {
		opts.Rules = rulesets.All()
	}
	if info != nil {
		return Analysis{File: f, Info: info, Diags: lint.CheckWith(f, info, parsed, &ctx, opts)}
	}
	info, ds := lint.CheckParsed(f, parsed, &ctx, opts)
	return Analysis{File: f, Info: info, Diags: ds}
}

// defaultFormatter is the formatter used when Options.Format is nil: the
// `skillc fmt` layout, refused for sources with syntax errors.
func defaultFormatter() Formatter {
	return func(name string, src []byte) ([]byte, error) {
		out, diags := syntax.FormatSource(name, src)
		if len(diags) > 0 {
			return nil, diags
		}
		return out, nil
	}
}

// DefaultRuleDoc renders the documentation the linter keeps for a rule.
func DefaultRuleDoc(id string) (string, bool) {
	r := rulesets.All().Lookup(id)
	if r == nil {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n", r.Doc.Summary, r.Doc.Why)
	if r.Doc.Bad != "" {
		fmt.Fprintf(&b, "\nBad:\n```skillscript\n%s\n```\n", strings.TrimRight(r.Doc.Bad, "\n"))
	}
	if r.Doc.Good != "" {
		fmt.Fprintf(&b, "\nGood:\n```skillscript\n%s\n```\n", strings.TrimRight(r.Doc.Good, "\n"))
	}
	return b.String(), true
}

// lspSeverity maps a severity.
func lspSeverity(s ast.Severity) protocol.DiagnosticSeverity {
	switch s {
	case ast.Error:
		return protocol.DiagnosticSeverityError
	case ast.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// ruleURL returns the documentation link of a rule.
func (s *Server) ruleURL(rule string) uri.URI {
	return uri.URI(s.opts.RuleDocURL + "#" + rule)
}

// lspDiagnostic converts one diagnostic of snap.
func (s *Server) lspDiagnostic(snap *snapshot, d *ast.Diagnostic) protocol.Diagnostic {
	return s.lspDiagnosticIn(snap.uri, snap.lines, d)
}

// lspDiagnosticIn converts one diagnostic of the file at u, whose line
// table is lines. Related locations in other files point at those files.
func (s *Server) lspDiagnosticIn(u string, lines *ast.LineTable, d *ast.Diagnostic) protocol.Diagnostic {
	out := protocol.Diagnostic{
		Range:    lspRange(lines, d.Range),
		Severity: lspSeverity(d.Severity),
		Source:   protocol.NewOptional("skillc"),
		Message:  protocol.String(d.Message),
	}
	if d.Rule != "" {
		out.Code = protocol.String(d.Rule)
		out.CodeDescription = protocol.CodeDescription{Href: s.ruleURL(d.Rule)}
	}
	for _, r := range d.Related {
		ru, rl := u, lines
		if r.File != "" {
			ru, rl = fileURI(r.File), s.linesOf(r.File)
		}
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri.URI(ru), Range: lspRange(rl, r.Range)},
			Message:  r.Message,
		})
	}
	return out
}

// lspDiagnostics converts every diagnostic of snap, sorted by position.
func (s *Server) lspDiagnostics(snap *snapshot) []protocol.Diagnostic {
	ds := append(ast.Diagnostics(nil), snap.Diags...)
	ds.Sort()
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, s.lspDiagnostic(snap, d))
	}
	return out
}
