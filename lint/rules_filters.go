package lint

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

func ruleUnknownFilter() *Rule {
	return &Rule{
		ID: "unknown-filter", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `|filter` that is not one of the shipped filters (" + codeList(shippedFilters) + "). Filter names are case-sensitive.",
			Why:     "An unknown filter fails the substitution at run time. Misspellings get a did-you-mean fix; computations that no filter covers belong in a tool.",
			Bad:     "emit(text=\"${X|URL}\")\n",
			Good:    "emit(text=\"${X|url}\")\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, r := range p.st.idx().filtered {
				if p.skip(r.Subst.Range) {
					continue
				}
				for _, f := range r.Subst.Filters {
					if f.Name == nil || lang.IsFilter(f.Name.Name) {
						continue
					}
					reportUnknownFilter(p, f)
				}
			}
		},
	}
}

func reportUnknownFilter(p *Pass, f *ast.Filter) {
	name := f.Name.Name
	if name == "json_parse" {
		p.Reportf(f.Name, "json_parse is an op, not a filter: parse first with \"$ json_parse ${X} -> PARSED\" and read ${PARSED.field}")
		return
	}
	s := closest(name, shippedFilters)
	d := p.Reportf(f.Name, "unknown filter %s%s (the filters are %s)", name, didYouMean(s), strings.Join(shippedFilters, ", "))
	if s != "" {
		d.WithFix("rename to "+s, f.Name.Range, s)
	}
}

func ruleUnquotedFilterArg() *Rule {
	return &Rule{
		ID: "unquoted-filter-arg", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A bare filter argument such as `|head:5`.",
			Why:     "Filter arguments are double-quoted strings. The reference runtime silently dropped bare arguments; skillc accepts them but asks for the quoted form (the fix adds the quotes).",
			Bad:     "emit(text=\"${LOG|head:5}\")\n",
			Good:    "emit(text=\"${LOG|head:\\\"5\\\"}\")\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().filtered {
				for _, f := range r.Subst.Filters {
					if f.Arg == nil || f.Arg.Quoted || f.Name == nil || r.Subst.Bad != "" {
						continue // a malformed substitution is a parse-error
					}
					q := quoteFilterArg(p, r, f.Arg.Value)
					p.Reportf(f.Arg, "filter argument %s of |%s is not quoted: write |%s:%s", f.Arg.Value, f.Name.Name, f.Name.Name, q).
						WithFix("quote the argument", f.Arg.Range, q)
				}
			}
		},
	}
}

// quoteFilterArg quotes v for a filter argument; inside a double-quoted
// string the quotes are escaped so that the enclosing string stays intact
// for tools that do not know that substitutions nest.
func quoteFilterArg(p *Pass, r *check.Ref, v string) string {
	if inDoubleQuoted(p, r.Subst) {
		return `\"` + v + `\"`
	}
	return `"` + v + `"`
}

// inDoubleQuoted reports whether s sits inside a "..." string literal,
// judged by the source text before it on its line.
func inDoubleQuoted(p *Pass, s *ast.Subst) bool {
	off := s.Pos().Offset()
	line := p.File.Lines.Position(s.Pos()).Line
	start := p.File.Lines.LineStart(line)
	if off < start || off > len(p.File.Src) {
		return false
	}
	n := 0
	depth := 0
	src := p.File.Src[start:off]
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\\':
			i++
		case src[i] == '$' && i+1 < len(src) && src[i+1] == '{':
			depth++
			i++
		case src[i] == '}' && depth > 0:
			depth--
		case src[i] == '"' && depth == 0:
			n++
		}
	}
	return n%2 == 1
}

func ruleUnparsedJSONFieldAccess() *Rule {
	return &Rule{
		ID: "unparsed-json-field-access", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`${X|json_parse}.field`: field access after a `json_parse` filter, which does not exist.",
			Why:     "There is no `json_parse` filter, and text after the closing brace is literal. Parse with the `$ json_parse` op and read the field from its result.",
			Bad:     "emit(text=\"${RAW|json_parse}.count\")\n",
			Good:    "$ json_parse ${RAW} -> P\nemit(text=\"${P.count}\")\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().filtered {
				fs := r.Subst.Filters
				if len(fs) == 0 || fs[len(fs)-1].Name == nil || fs[len(fs)-1].Name.Name != "json_parse" {
					continue
				}
				end := r.Subst.End().Offset()
				src := p.File.Src
				if end+1 < len(src) && src[end] == '.' && isIdentByte(src[end+1]) {
					p.Reportf(r.Subst, "%s.%s reads a field of unparsed text: parse with \"$ json_parse ${%s} -> P\" and use ${P.%s}", p.Text(r.Subst.Range), fieldAfter(src, end+1), r.Name(), fieldAfter(src, end+1))
				}
			}
		},
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func fieldAfter(src []byte, i int) string {
	j := i
	for j < len(src) && isIdentByte(src[j]) {
		j++
	}
	return string(src[i:j])
}

func ruleRemoteResultNeedsParse() *Rule {
	return &Rule{
		ID: "remote-result-needs-parse", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`${R|length}` on the unparsed result of a `$ conn.tool` dispatch.",
			Why:     "A connector tool returns text; `|length` then counts characters (or fails on an envelope object) instead of items. Parse it with `$ json_parse` and count the array you mean.",
			Bad:     "$ tickets.search query=\"open\" -> R\nemit(text=\"${R|length} open\")\n",
			Good:    "$ tickets.search query=\"open\" -> R\n$ json_parse ${R} -> P\nemit(text=\"${P.items|length} open\")\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().filtered {
				if len(r.Subst.Path) > 0 || !hasFilter(r.Subst, "length") || !boundByRemote(r) {
					continue
				}
				p.Reportf(r.Subst, "%s counts the raw result of a connector call: parse it with \"$ json_parse ${%s} -> P\" and count the array field you mean", p.Text(r.Subst.Range), r.Name())
			}
		},
	}
}

func hasFilter(s *ast.Subst, name string) bool {
	for _, f := range s.Filters {
		if f.Name != nil && f.Name.Name == name {
			return true
		}
	}
	return false
}

// boundByRemote reports whether every binding of r's root is the result of
// a "$ conn.tool" dispatch.
func boundByRemote(r *check.Ref) bool {
	bs := refBinders(r)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		d, ok := bindingOp(b).(*ast.DispatchStmt)
		if !ok || d.Connector == nil {
			return false
		}
	}
	return true
}

func ruleFilterArity() *Rule {
	return &Rule{
		ID: "filter-arity", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A filter used without the argument it needs (`|head`, `|lines`, `|contains`, `|fallback`, `|pluck`), or given one it does not take (`|trim:\"x\"`).",
			Why:     "The substitution fails at run time with \"needs a quoted argument\" or \"takes no argument\". The filters section of docs/language.md and `skillc explain` list each filter's argument; an argument a filter does not take gets a fix that removes it.",
			Bad:     "emit(text=\"${LOG|head}\")\nemit(text=\"${NAME|trim:\\\"x\\\"}\")\n",
			Good:    "emit(text=\"${LOG|head:\\\"5\\\"}\")\nemit(text=\"${NAME|trim}\")\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, r := range p.st.idx().filtered {
				if r.Subst.Bad != "" || p.skip(r.Subst.Range) {
					continue // a parse-error already
				}
				for _, f := range r.Subst.Filters {
					if f.Name == nil {
						continue
					}
					doc, ok := lang.LookupFilter(f.Name.Name)
					switch {
					case !ok:
					case doc.TakesArg && f.Arg == nil:
						p.Reportf(f, "|%s needs an argument (%s), e.g. %s", doc.Name, doc.Arg, doc.Example)
					case !doc.TakesArg && f.Arg != nil:
						p.Reportf(f.Arg, "|%s takes no argument", doc.Name).
							WithFix("remove the argument", ast.Range{From: f.Name.To, To: f.Arg.To}, "")
					}
				}
			}
		},
	}
}

func ruleFilterArgKind() *Rule {
	return &Rule{
		ID: "filter-arg-kind", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A literal argument of the wrong kind for a line filter: `|head`/`|tail` take a number of lines, `|lines` a range \"M-N\".",
			Why:     "The line filters never fail: an argument they cannot read keeps nothing, so the output is silently empty. Arguments that hold a `${...}` are checked when the skill runs.",
			Bad:     "emit(text=\"${LOG|head:\\\"five\\\"}\")\nemit(text=\"${LOG|lines:\\\"3\\\"}\")\n",
			Good:    "emit(text=\"${LOG|head:\\\"5\\\"}\")\nemit(text=\"${LOG|lines:\\\"1-3\\\"}\")\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().filtered {
				for _, f := range r.Subst.Filters {
					if f.Name == nil || f.Arg == nil || f.Arg.Text != nil {
						continue
					}
					v := strings.TrimSpace(f.Arg.Value)
					doc, _ := lang.LookupFilter(f.Name.Name)
					switch doc.ArgKind {
					case lang.ArgCount:
						if !allDigits(v) {
							p.Reportf(f.Arg, "|%s takes a number of lines; %q keeps nothing", f.Name.Name, f.Arg.Value)
						}
					case lang.ArgRange:
						lo, hi, ok := strings.Cut(v, "-")
						if !ok || !allDigits(strings.TrimSpace(lo)) || !allDigits(strings.TrimSpace(hi)) {
							p.Reportf(f.Arg, "|lines takes a range \"M-N\" (lines M to N, from 1); %q keeps nothing", f.Arg.Value)
						}
					}
				}
			}
		},
	}
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
