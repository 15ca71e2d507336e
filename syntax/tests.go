package syntax

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
	yaml "go.yaml.in/yaml/v3"
)

// TestAssertions returns the assertion kinds a # Tests: case may use, as a
// fresh slice.
func TestAssertions() []string {
	return []string{
		"compiled_output_contains", "compiled_output_does_not_contain", "compile_error",
		"target_else_executed", "op_fallback_used", "result_value",
		"output_contains", "output_does_not_contain", "error_contains", "emits",
	}
}

// testsBlock reads the indented YAML block under # Tests: (header at line
// i) and validates it.
func (p *parser) testsBlock(h *ast.Header, i int) int {
	j := i + 1
	last := i
	for ; j <= p.last; j++ {
		l := p.line(j)
		if isBlankLine(l) {
			continue
		}
		if w, _ := p.indent(j); w == 0 {
			break
		}
		last = j
	}
	from, to := p.lineStart(i+1), p.lineEnd(last)
	if last == i {
		if h.Value == "" {
			p.errorf("invalid-tests", h.Range, "# Tests: needs an indented YAML list of test cases on the following lines")
		}
		from, to = h.ValueRng.From.Offset(), h.ValueRng.To.Offset()
	}
	tb := &ast.TestsBlock{Range: ast.RangeOf(from, to), YAML: dedentBlock(p.text[from:to])}
	h.Tests = tb
	h.Range.To = ast.PosOf(max(to, h.Range.To.Offset()))
	lineBase := p.lines.Position(ast.PosOf(from)).Line
	if last == i {
		lineBase = p.lines.Position(h.Pos()).Line
	}
	p.parseTests(tb, lineBase, from)
	return max(last+1, i+1)
}

func dedentBlock(s string) string {
	lines := strings.Split(s, "\n")
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if common < 0 || n < common {
			common = n
		}
	}
	for k, l := range lines {
		if len(l) >= common && common > 0 {
			lines[k] = l[common:]
		}
	}
	return strings.Join(lines, "\n")
}

// parseTests parses tb.YAML; yaml line numbers are relative to lineBase.
func (p *parser) parseTests(tb *ast.TestsBlock, lineBase, from int) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(tb.YAML), &root); err != nil {
		p.errorf("invalid-tests", tb.Range, "# Tests: is not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		return
	}
	if len(root.Content) == 0 {
		return
	}
	list := root.Content[0]
	if list.Kind != yaml.SequenceNode {
		p.errorf("invalid-tests", tb.Range, "# Tests: must be a YAML list of cases (\"- name: ...\")")
		return
	}
	names := map[string]bool{}
	for _, item := range list.Content {
		tc := p.testCase(item, lineBase)
		if tc == nil {
			continue
		}
		if names[tc.Name] {
			p.errorf("invalid-tests", tc.Range, "duplicate test case name %q", tc.Name)
		}
		names[tc.Name] = true
		clampCase(tc, tb.Range)
		tb.Cases = append(tb.Cases, tc)
	}
}

// yamlRange maps a yaml node to a file range covering its line from its column.
func (p *parser) yamlRange(n *yaml.Node, lineBase int) ast.Range {
	line := lineBase + n.Line - 1
	ls, le := p.lineStart(line), p.lineEnd(line)
	off := ls + p.leadLen(line)
	for k := 1; k < n.Column && off < le; k++ {
		off++
	}
	if p.leadLen(line) > 0 {
		off = ls + p.leadLen(line) + max(n.Column-1-p.minIndent(lineBase), 0)
	}
	return ast.RangeOf(min(off, le), le)
}

// minIndent is the common indentation the YAML block was dedented by.
func (p *parser) minIndent(lineBase int) int {
	w, _ := p.indent(lineBase)
	return w
}

// yamlEnd returns the end of the last source line that n or any node
// inside it occupies.
func (p *parser) yamlEnd(n *yaml.Node, lineBase int) ast.Pos {
	last := n.Line
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		last = max(last, n.Line)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return ast.PosOf(p.lineEnd(lineBase + last - 1))
}

func (p *parser) testCase(item *yaml.Node, lineBase int) *ast.TestCase {
	r := p.yamlRange(item, lineBase)
	if item.Kind != yaml.MappingNode {
		p.errorf("invalid-tests", r, "a test case is a mapping with name, given and expect")
		return nil
	}
	tc := &ast.TestCase{Range: ast.Range{From: r.From, To: p.yamlEnd(item, lineBase)}, Given: map[string]any{}}
	hasExpect := false
	for k := 0; k+1 < len(item.Content); k += 2 {
		key, val := item.Content[k], item.Content[k+1]
		switch key.Value {
		case "name":
			tc.Name = val.Value
		case "given":
			if err := val.Decode(&tc.Given); err != nil || val.Kind != yaml.MappingNode {
				p.errorf("invalid-tests", p.yamlRange(val, lineBase), "given: must map variable names to values")
			}
		case "expect":
			hasExpect = true
			tc.Expect = p.testExpect(val, lineBase)
		default:
			p.errorf("invalid-tests", p.yamlRange(key, lineBase), "unknown test case key %q (want name, given, expect)", key.Value)
		}
	}
	if tc.Name == "" {
		p.errorf("invalid-tests", r, "test case needs a name")
	}
	if !hasExpect {
		p.errorf("invalid-tests", r, "test case %q has no expect: assertions", tc.Name)
	}
	return tc
}

func (p *parser) testExpect(val *yaml.Node, lineBase int) []*ast.TestExpect {
	if val.Kind != yaml.MappingNode {
		p.errorf("invalid-tests", p.yamlRange(val, lineBase), "expect: must be a mapping of assertion: value")
		return nil
	}
	var out []*ast.TestExpect
	for k := 0; k+1 < len(val.Content); k += 2 {
		key, v := val.Content[k], val.Content[k+1]
		if !contains(TestAssertions(), key.Value) {
			sorted := TestAssertions()
			sort.Strings(sorted)
			p.errorf("invalid-tests", p.yamlRange(key, lineBase), "unknown assertion %q (known: %s)", key.Value, strings.Join(sorted, ", "))
			continue
		}
		if v.Kind != yaml.ScalarNode {
			p.errorf("invalid-tests", p.yamlRange(v, lineBase), "assertion %s takes a single value", key.Value)
			continue
		}
		out = append(out, &ast.TestExpect{Range: p.yamlRange(key, lineBase), Kind: key.Value, Value: fmt.Sprint(v.Value)})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clampCase keeps the ranges of a test case inside its block's range (an
// inline "# Tests: [...]" value maps YAML columns only approximately).
func clampCase(tc *ast.TestCase, r ast.Range) {
	tc.Range = clampRange(tc.Range, r)
	for _, e := range tc.Expect {
		e.Range = clampRange(e.Range, tc.Range)
	}
}

func clampRange(x, r ast.Range) ast.Range {
	x.From = min(max(x.From, r.From), r.To)
	x.To = min(max(x.To, x.From), r.To)
	return x
}
