package agentskills

import (
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/skillscript/skillc/ast"
)

// body records the Markdown after the closing delimiter (from line
// first on) and checks its budget, its links and its suppression comments.
func (p *parser) body(first int) {
	lt := p.s.Lines
	start := lt.LineStart(first)
	if first > lt.LineCount() {
		start = len(p.s.Src)
	}
	p.s.BodyRange = ast.RangeOf(start, len(p.s.Src))
	p.s.Body = strings.ReplaceAll(string(p.s.Src[start:]), "\r\n", "\n")
	p.frontmatterComments(first - 1)
	p.budget(first)
	p.links(first)
}

// budget warns once when the body passes the line budget and once when
// it passes the token estimate (bytes / 4).
func (p *parser) budget(first int) {
	lt := p.s.Lines
	last := lt.LineCount()
	if last >= first && len(lt.Line(last)) == 0 {
		last-- // the empty line after a final newline
	}
	if n := last - first + 1; n > p.opts.bodyLines() {
		l := first + p.opts.bodyLines()
		p.report(RuleBodyBudget, p.lineRange(l), "the body has %d lines, over the budget of %d; move reference material into references/ files", n, p.opts.bodyLines())
	}
	limit := p.opts.bodyTokens() * 4
	if len(p.s.Body) <= limit {
		return
	}
	off := p.s.BodyRange.From.Offset() + limit
	l := lt.Position(ast.PosOf(off)).Line
	p.report(RuleBodyBudget, p.lineRange(l), "the body is about %d tokens, over the budget of %d; move reference material into references/ files", len(p.s.Body)/4, p.opts.bodyTokens())
}

var (
	inlineLinkRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`!?\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	})
	refLinkRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`) })
	codeSpanRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`+[^`]*`+") })
	schemeRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.\-]*:`) })
	driveRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z]:[\\/]`) })
	fenceRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^ {0,3}(```|~~~)") })
)

// links checks every Markdown link target outside code.
func (p *parser) links(first int) {
	lt := p.s.Lines
	fenced := false
	for l := first; l <= lt.LineCount(); l++ {
		text := string(lt.Line(l))
		if fenceRE().MatchString(text) {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		p.lineLinks(l, blankCode(text))
	}
}

// blankCode replaces inline code spans by spaces, keeping offsets.
func blankCode(s string) string {
	return codeSpanRE().ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat(" ", len(m)) })
}

// lineLinks checks the link targets on line l.
func (p *parser) lineLinks(l int, text string) {
	base := p.s.Lines.LineStart(l)
	var spans [][]int
	for _, m := range inlineLinkRE().FindAllStringSubmatchIndex(text, -1) {
		spans = append(spans, m[2:4])
	}
	if m := refLinkRE().FindStringSubmatchIndex(text); m != nil {
		spans = append(spans, m[2:4])
	}
	for _, sp := range spans {
		target := strings.Trim(text[sp[0]:sp[1]], "<>")
		p.checkTarget(target, ast.RangeOf(base+sp[0], base+sp[1]))
	}
}

// fsRoots are top-level directories that make a one-segment "/name" a
// file-system path rather than a slash command.
var fsRoots = map[string]bool{"bin": true, "boot": true, "dev": true, "etc": true, "home": true, "lib": true, "mnt": true,
	"opt": true, "private": true, "proc": true, "root": true, "run": true, "sbin": true, "srv": true, "sys": true,
	"tmp": true, "usr": true, "var": true, "Users": true, "Volumes": true, "Library": true, "Applications": true}

// fsPath reports whether a target starting with "/" looks like a
// file-system path: not "//host/..." (a scheme-relative URL), no ':' in
// its first segment (a "/vendor:skill" slash command), and either more
// than one segment, a file extension, or a well-known root directory.
// A bare "/deploy" is a slash command.
func fsPath(target string) bool {
	if strings.HasPrefix(target, "//") {
		return false
	}
	rest := strings.TrimPrefix(target, "/")
	if i := strings.IndexAny(rest, "#?"); i >= 0 {
		rest = rest[:i]
	}
	seg, more, _ := strings.Cut(rest, "/")
	switch {
	case seg == "" || strings.Contains(seg, ":"):
		return false
	case more != "" || fsRoots[seg]:
		return true
	}
	return path.Ext(seg) != ""
}

// checkTarget classifies one link target.
func (p *parser) checkTarget(target string, r ast.Range) {
	switch {
	case target == "" || strings.HasPrefix(target, "#"):
		return
	case strings.HasPrefix(target, "/") && !fsPath(target):
		return // a slash command (/vendor:skill, /review) or //host/x URL
	case strings.HasPrefix(strings.ToLower(target), "file:"),
		strings.HasPrefix(target, "/"), strings.HasPrefix(target, `\`),
		strings.HasPrefix(target, "~/"), driveRE().MatchString(target):
		p.report(RuleAbsolutePath, r, "link to the absolute path %s; link relative to the package root", target)
		return
	case schemeRE().MatchString(target):
		return // a URL
	}
	rel := target
	if i := strings.IndexAny(rel, "#?"); i >= 0 {
		rel = rel[:i]
	}
	if u, err := url.PathUnescape(rel); err == nil {
		rel = u
	}
	clean := path.Clean(strings.ReplaceAll(rel, `\`, "/"))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		p.report(RuleLinkOutside, r, "link %s leaves the package directory", target)
		return
	}
	if p.input.Exists != nil && clean != "." && !p.input.Exists(clean) {
		p.report(RuleBrokenLink, r, "link to %s, which is not in the package", clean)
	}
}

// frontmatterComments collects suppression comments: YAML comments in the
// frontmatter (lines 2 to closeLine-1) and HTML comments in the body.
func (p *parser) frontmatterComments(closeLine int) {
	lt := p.s.Lines
	for l := 2; l <= lt.LineCount(); l++ {
		text := string(lt.Line(l))
		marker := "#"
		if l > closeLine {
			marker = "<!--"
		}
		i := strings.Index(text, "skillc:ignore")
		if i < 0 {
			continue
		}
		c := strings.LastIndex(text[:i], marker)
		if c < 0 {
			continue
		}
		body := strings.TrimSuffix(strings.TrimSpace(text[i:]), "-->")
		base := lt.LineStart(l)
		p.s.Comments = append(p.s.Comments, &ast.Comment{
			Range:    ast.RangeOf(base+c, base+len(text)),
			Text:     "# " + strings.TrimSpace(body),
			Trailing: strings.TrimSpace(text[:c]) != "",
		})
	}
}
