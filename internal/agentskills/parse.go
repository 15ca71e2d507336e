package agentskills

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/skillscript/skillc/ast"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// parser holds the state of one Parse call.
type parser struct {
	s     *Skill
	opts  Options
	sev   map[string]ast.Severity
	ds    ast.Diagnostics
	fm    int // file line of the first frontmatter line (YAML line 1)
	input Input
	// aliasBomb is set when the frontmatter has too many aliases to read.
	aliasBomb bool
	// unreadable is set when the frontmatter was read only by the compat
	// retry, which strict mode does not accept.
	unreadable bool
	// metaKeys and metaVals are the ranges of each metadata key and value
	// (nested classification children under their flattened names).
	metaKeys, metaVals map[string]ast.Range
}

// Parse parses and validates a SKILL.md. It never panics; every problem
// is a diagnostic with a range inside src (or no range, for problems of
// the whole file). The diagnostics are sorted by position.
func Parse(in Input, opts Options) (*Skill, ast.Diagnostics) {
	s := &Skill{Path: in.Path, DirName: in.DirName, Src: in.Src, Lines: ast.NewLineTable(in.Src), Keys: map[string]ast.Range{}}
	p := &parser{s: s, opts: opts, sev: ruleSeverities(opts.Mode, opts.Claude), input: in, metaKeys: map[string]ast.Range{}, metaVals: map[string]ast.Range{}}
	p.parse()
	p.ds.Sort()
	return s, p.ds
}

// report adds a diagnostic of rule at r with the rule's severity in the
// current mode; a rule that is off in this mode is dropped (the returned
// diagnostic can still be decorated, it is just not recorded).
func (p *parser) report(rule string, r ast.Range, format string, args ...any) *ast.Diagnostic {
	d := &ast.Diagnostic{Severity: p.sev[rule], Rule: rule, Range: r, Message: fmt.Sprintf(format, args...)}
	if d.Severity != 0 {
		p.ds = append(p.ds, d)
	}
	return d
}

func (p *parser) parse() {
	src := p.s.Src
	if int64(len(src)) > p.opts.maxSize() {
		p.report(RuleTooLarge, ast.Range{}, "SKILL.md is %d bytes, over the %d-byte cap; it is not read", len(src), p.opts.maxSize())
		return
	}
	if !utf8.Valid(src) || bytes.IndexByte(src, 0) >= 0 {
		p.report(RuleNotText, ast.Range{}, "SKILL.md is not UTF-8 text; it is not read")
		return
	}
	p.encoding()
	closeLine, ok := p.delimiters()
	if !ok {
		return
	}
	p.fm = 2
	p.s.FrontmatterRange = ast.RangeOf(p.s.Lines.LineStart(2), p.s.Lines.LineStart(closeLine))
	p.body(closeLine + 1)
	root := p.yaml(closeLine)
	if root == nil {
		return
	}
	p.checkTree(root)
	if p.aliasBomb {
		return
	}
	p.fields(root)
	p.s.Loadable = p.s.Name != "" && strings.TrimSpace(p.s.Description) != "" && !p.unreadable
}

// encoding reports a byte-order mark and CRLF line endings.
func (p *parser) encoding() {
	if bytes.HasPrefix(p.s.Src, bom) {
		r := ast.RangeOf(0, len(bom))
		p.report(RuleEncoding, r, "byte-order mark at the start of SKILL.md; it is ignored").WithFix("remove the byte-order mark", r, "")
	}
	if i := bytes.Index(p.s.Src, []byte("\r\n")); i >= 0 {
		p.report(RuleEncoding, ast.RangeOf(i, i+2), "CRLF line endings; they are read as LF")
	}
}

// lineText returns 1-based line n without its terminator and, on line 1,
// without a byte-order mark.
func (p *parser) lineText(n int) string {
	l := p.s.Lines.Line(n)
	if n == 1 {
		l = bytes.TrimPrefix(l, bom)
	}
	return string(l)
}

// lineRange returns the range of line n's text.
func (p *parser) lineRange(n int) ast.Range {
	start := p.s.Lines.LineStart(n)
	if n == 1 && bytes.HasPrefix(p.s.Src, bom) {
		start += len(bom)
	}
	return ast.RangeOf(start, p.s.Lines.LineEnd(n))
}

// isDelimiter reports whether a line is a frontmatter delimiter: "---"
// followed only by spaces or tabs.
func isDelimiter(line string) bool {
	return strings.TrimRight(line, " \t") == "---"
}

// delimiters finds the closing delimiter line; ok is false (and a
// diagnostic reported) when the frontmatter is missing or unclosed.
func (p *parser) delimiters() (closeLine int, ok bool) {
	if !isDelimiter(p.lineText(1)) {
		p.report(RuleFrontmatter, p.lineRange(1), "SKILL.md must start with a `---` line opening the YAML frontmatter")
		return 0, false
	}
	n := p.s.Lines.LineCount()
	for l := 2; l <= n; l++ {
		if isDelimiter(p.lineText(l)) {
			return l, true
		}
	}
	p.report(RuleFrontmatter, p.lineRange(1), "the frontmatter opened here has no closing `---` line")
	return 0, false
}

// frontmatterText joins the frontmatter lines with LF.
func (p *parser) frontmatterText(closeLine int) string {
	var b strings.Builder
	for l := 2; l < closeLine; l++ {
		b.WriteString(p.lineText(l))
		b.WriteByte('\n')
	}
	return b.String()
}

// yaml parses the frontmatter into a node tree and returns the top-level
// mapping, or nil after reporting why there is none.
func (p *parser) yaml(closeLine int) *yaml.Node {
	text := p.frontmatterText(closeLine)
	var doc yaml.Node
	err := yaml.Unmarshal([]byte(text), &doc)
	if err != nil {
		fixed, quoted := quoteColonValues(text)
		if len(quoted) == 0 || yaml.Unmarshal([]byte(fixed), &doc) != nil {
			p.yamlError(err, closeLine)
			return nil
		}
		p.reportQuoted(quoted)
		// strict mode reports everything else too, but does not load it
		p.unreadable = p.opts.Mode == Strict
	}
	if len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		p.report(RuleYAML, p.nodeRange(root), "the frontmatter must be a mapping of keys to values, not a %s", kindName(root))
		return nil
	}
	return root
}

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: (?:line (\d+): )?`) })

// yamlError reports a YAML syntax error on the line the parser names.
func (p *parser) yamlError(err error, closeLine int) {
	msg := err.Error()
	r := p.s.FrontmatterRange
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		msg = msg[len(m[0]):]
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			if strings.HasPrefix(msg, "did not find expected ',' or") {
				n++ // yaml counts the line of an unclosed flow collection from 0
			}
			r = p.lineRange(min(n+p.fm-1, closeLine-1))
		}
	}
	if !r.IsValid() || r.From == r.To && closeLine > 2 {
		r = p.lineRange(max(1, closeLine-1))
	}
	p.report(RuleYAML, r, "invalid YAML in the frontmatter: %s", strings.TrimSpace(msg))
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "map"
	case yaml.AliasNode:
		return "alias"
	}
	return "single value"
}
