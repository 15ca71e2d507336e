package lsp

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/syntax"
)

// reTargetLine matches the first line of a target (its name and colon at
// column 0).
var reTargetLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][\w-]*[ \t]*:`) })

// reparse computes the parser's findings of text after one edit by
// re-parsing only the target the edit falls in: targets are independent
// units, so the findings elsewhere are those of the last parse moved past
// the edit. ok is false when that does not apply (several edits, an edit
// outside a single target, a target that does not parse as one), and the
// caller parses the whole text.
func (s *Server) reparse(u string, text []byte, inc incremental) (ast.Diagnostics, bool) {
	if !inc.ok || len(inc.spans) != 1 || isSkillMD(u) {
		return nil, false
	}
	sp := inc.spans[0]
	from, to, ok := targetChunk(text, sp.from, sp.from+sp.n)
	if !ok {
		return nil, false
	}
	// A parse of its own: the chunk is one target cut out of the document,
	// not a skill, so it is no compiled unit (and must not replace the
	// document's unit in the cache, which keeps one unit per path).
	f, raw := syntax.Parse(docName(u), text[from:to])
	if len(f.Targets) != 1 || f.Targets[0].Pos().Offset() != 0 || len(f.Headers) > 0 {
		return nil, false
	}
	env, _ := s.ws.env(u)
	var opts lint.Options
	if env != nil && env.Env != nil {
		opts = env.LintOptions
	}
	opts.ReportUnusedSuppressions = false
	if opts.Rules == nil {
		opts.Rules = rulesets.All()
	}
	out := make(ast.Diagnostics, 0, len(inc.parsed)+len(raw))
	for _, d := range shiftDiags(inc.parsed, inc.spans) {
		if !d.Range.From.IsValid() || d.Range.To.Offset() <= from || d.Range.From.Offset() >= to {
			out = append(out, d)
		}
	}
	delta := ast.Pos(from)
	for _, d := range lint.Filter(f, raw, opts) {
		if !d.Range.From.IsValid() || d.Range.To.Offset() > to-from {
			continue // about the chunk as a whole file (no default target, ...)
		}
		cp := *d
		cp.Range.From += delta
		cp.Range.To += delta
		cp.Related = nil
		for _, r := range d.Related {
			if r.File == "" && r.Range.From.IsValid() {
				r.Range.From += delta
				r.Range.To += delta
			}
			cp.Related = append(cp.Related, r)
		}
		out = append(out, &cp)
	}
	return out, true
}

// targetChunk returns the byte range of the target holding [from, to):
// from the target's first line to the next line that starts a target (or
// is `default:`). Lines at column 0 in between (the closing line of a
// multi-line call, ...) belong to the target. ok is false when the range
// is not inside one target followed by another.
func targetChunk(text []byte, from, to int) (int, int, bool) {
	start := bytes.LastIndexByte(text[:from], '\n') + 1
	for {
		line := lineAt(text, start)
		if len(line) > 0 && !isIndent(line[0]) && line[0] != '\r' {
			if line[0] == '#' || bytes.HasPrefix(line, []byte("default")) {
				return 0, 0, false // a header or the entry point: not in a target
			}
			if reTargetLine().Match(line) {
				break
			}
		}
		if start == 0 {
			return 0, 0, false
		}
		start = bytes.LastIndexByte(text[:start-1], '\n') + 1
	}
	end := to
	if i := bytes.IndexByte(text[end:], '\n'); i >= 0 {
		end += i + 1
	} else {
		return 0, 0, false
	}
	for {
		if end >= len(text) {
			return 0, 0, false // the last target: what follows is not known
		}
		if line := lineAt(text, end); len(line) > 0 && reTargetLine().Match(line) {
			return start, end, true
		}
		i := bytes.IndexByte(text[end:], '\n')
		if i < 0 {
			return 0, 0, false
		}
		end += i + 1
	}
}

// lineAt returns the line starting at offset start, without its newline.
func lineAt(text []byte, start int) []byte {
	line := text[start:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return line
}

// isIndent reports whether c indents a line.
func isIndent(c byte) bool { return c == ' ' || c == '\t' }
