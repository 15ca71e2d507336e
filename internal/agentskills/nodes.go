package agentskills

import (
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/skillscript/skillc/ast"
)

// nodeStart returns the byte offset of a node's first character. YAML
// lines are counted from the first frontmatter line and columns in
// characters, which the file's line table converts.
func (p *parser) nodeStart(n *yaml.Node) int {
	if n.Line <= 0 {
		return p.s.FrontmatterRange.From.Offset()
	}
	return p.s.Lines.Offset(n.Line+p.fm-1, max(n.Column, 1))
}

// nodeRange returns the source range of a node: exact for keys and
// single-line scalars, the covered lines for block scalars, and up to the
// last descendant for lists and maps.
func (p *parser) nodeRange(n *yaml.Node) ast.Range {
	start := p.nodeStart(n)
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		end := start
		if len(n.Content) > 0 {
			end = max(end, p.nodeRange(n.Content[len(n.Content)-1]).To.Offset())
		}
		if n.Style&yaml.FlowStyle != 0 {
			end = p.flowEnd(start, end)
		}
		return ast.RangeOf(start, end)
	}
	return ast.RangeOf(start, p.scalarEnd(start, n))
}

// flowEnd extends a flow collection's range over its closing bracket.
func (p *parser) flowEnd(start, end int) int {
	src := p.s.Src
	for i := end; i < len(src) && src[i] != '\n'; i++ {
		if src[i] == ']' || src[i] == '}' {
			end = i + 1
			if i+1 < len(src) && src[i+1] == '\n' {
				break
			}
		}
	}
	return max(start, end)
}

// scalarEnd returns the end offset of the scalar (or alias) starting at
// off.
func (p *parser) scalarEnd(off int, n *yaml.Node) int {
	line := p.s.Lines.Position(ast.PosOf(off)).Line
	lineEnd := p.s.Lines.LineEnd(line)
	text := string(p.s.Src[off:lineEnd])
	switch {
	case n.Kind == yaml.AliasNode:
		return off + aliasLen(text)
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return off + quotedLen(text, '"')
	case n.Style&yaml.SingleQuotedStyle != 0:
		return off + quotedLen(text, '\'')
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		last := min(line+strings.Count(strings.TrimRight(n.Value, "\n"), "\n")+1, p.s.Lines.LineCount())
		return max(off, p.s.Lines.LineEnd(last))
	case n.Tag == "!!null" && n.Value == "":
		return off
	case strings.HasPrefix(text, n.Value) && n.Value != "":
		return off + len(n.Value)
	}
	return off + len(trimComment(text))
}

// aliasLen returns the length of "*name" at the start of text.
func aliasLen(text string) int {
	i := 1
	for i < len(text) && !strings.ContainsRune(" \t,]}#", rune(text[i])) {
		i++
	}
	return min(i, len(text))
}

// quotedLen returns the length of the quoted scalar at the start of text,
// closing quote included, or the whole line when it continues past it.
func quotedLen(text string, q byte) int {
	for i := 1; i < len(text); i++ {
		switch {
		case q == '"' && text[i] == '\\':
			i++
		case q == '\'' && text[i] == '\'' && i+1 < len(text) && text[i+1] == '\'':
			i++
		case text[i] == q:
			return i + 1
		}
	}
	return len(text)
}

// trimComment drops a trailing " # comment" and trailing blanks.
func trimComment(text string) string {
	if i := strings.Index(text, " #"); i >= 0 {
		text = text[:i]
	}
	return strings.TrimRight(text, " \t")
}

// checkTree reports duplicate keys, anchors and aliases, explicit tags
// and flow style anywhere in the frontmatter.
func (p *parser) checkTree(root *yaml.Node) {
	var aliases []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.AliasNode || n.Anchor != "" {
			aliases = append(aliases, n)
		}
		if explicitTag(n) {
			p.report(RuleUnsupportedTagged, p.nodeRange(n), "explicit YAML tag %s; frontmatter values are plain text", n.Tag)
		}
		if n.Style&yaml.FlowStyle != 0 && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
			p.report(RuleFlowStyle, p.nodeRange(n), "flow-style %s; write it in block style (one item per line)", kindName(n))
		}
		if n.Kind == yaml.MappingNode {
			p.duplicates(n)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	p.reportAliases(aliases)
}

// reportAliases reports anchors and aliases once, at the first: a
// warning (strict: error) up to maxAliases, an error refusing the
// frontmatter beyond.
func (p *parser) reportAliases(aliases []*yaml.Node) {
	switch n := len(aliases); {
	case n > maxAliases:
		p.ds = append(p.ds, ast.Errorf(RuleAlias, p.nodeRange(aliases[0]),
			"%d YAML anchors and aliases (more than %d); the frontmatter is refused", n, maxAliases))
		p.aliasBomb = true
	case n == 1:
		p.report(RuleAlias, p.nodeRange(aliases[0]), "YAML anchor or alias; write the value out")
	case n > 1:
		p.report(RuleAlias, p.nodeRange(aliases[0]), "%d YAML anchors and aliases, the first here; write the values out", n)
	}
}

// explicitTag reports whether a node carries a tag written in the source
// (yaml resolves implicit tags too; those have the plain styles).
func explicitTag(n *yaml.Node) bool {
	return n.Style&yaml.TaggedStyle != 0
}

// duplicates reports keys of mapping n that appear more than once.
func (p *parser) duplicates(n *yaml.Node) {
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if prev, ok := first[k.Value]; ok {
			d := p.report(RuleDuplicateKey, p.nodeRange(k), "duplicate key %q; parsers disagree on which value wins", k.Value)
			d.Related = append(d.Related, ast.Related{Range: p.nodeRange(prev), Message: "first defined here"})
			continue
		}
		first[k.Value] = k
	}
}

// colonValueRE matches "key: value" lines whose unquoted value contains
// ": ", which YAML rejects.
var colonValueRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*[A-Za-z0-9_.\-/]+:[ \t]+)([^\s"'\[{|>&*!%@#` + "`" + `].*)$`)
})

// quotedLine records one value quoteColonValues rewrote.
type quotedLine struct {
	line       int // YAML line, 1-based
	col, width int // byte column (0-based) and length of the value
	value      string
}

// quoteColonValues quotes every unquoted value containing ": " and
// returns the rewritten text and the values it changed.
func quoteColonValues(text string) (string, []quotedLine) {
	lines := strings.Split(text, "\n")
	var changed []quotedLine
	for i, l := range lines {
		m := colonValueRE().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := trimComment(m[2])
		if !strings.Contains(v, ": ") && !strings.HasSuffix(v, ":") {
			continue
		}
		changed = append(changed, quotedLine{line: i + 1, col: len(m[1]), width: len(v), value: v})
		lines[i] = m[1] + yamlQuote(v) + m[2][len(v):]
	}
	return strings.Join(lines, "\n"), changed
}

// yamlQuote returns v as a double-quoted YAML scalar.
func yamlQuote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// reportQuoted reports the values the compat retry quoted, with fixes.
func (p *parser) reportQuoted(qs []quotedLine) {
	for _, q := range qs {
		start := p.s.Lines.LineStart(q.line+p.fm-1) + q.col
		r := ast.RangeOf(start, start+q.width)
		p.report(RuleUnquotedColon, r, "unquoted value containing \": \" is not valid YAML; quote it").
			WithFix("quote the value", r, yamlQuote(q.value))
	}
}
