package lint

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/types"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// typer returns the file's Typer, made on first use.
func (p *Pass) typer() *Typer {
	if p.st.typer == nil {
		p.st.typer = NewTyper(p.Info, p.Ctx)
	}
	return p.st.typer
}

// pathText is "R.a.b": the root and the first n segments of s's path.
func pathText(s *ast.Subst, n int) string {
	var b strings.Builder
	if s.Root != nil {
		b.WriteString(s.Root.Name)
	}
	for _, seg := range s.Path[:n] {
		b.WriteByte('.')
		b.WriteString(seg.Name)
	}
	return b.String()
}

func ruleUnknownResultField() *Rule {
	return &Rule{
		ID: "unknown-result-field", Severity: ast.Warning, Needs: NeedsSchemas,
		Doc: Doc{
			Summary: "`${R.field}` where R's type (the tool's outputSchema) has no such field, or selects into a string, number or array.",
			Why:     "The reference is missing at run time and the op fails (or its fallback is used). Usually a typo of a declared field: the fix renames it. Types come from the outputSchema tools declare; a value without one is never checked.",
			Bad:     "$ tracker.search query=\"x\" -> R   # outputSchema: {total, items}\nemit(text=\"${R.totl}\")\n",
			Good:    "$ tracker.search query=\"x\" -> R\nemit(text=\"${R.total}\")\n",
		},
		Run: func(p *Pass) {
			ty := p.typer()
			for _, r := range p.st.idx().pathed {
				cur := ty.Bindings(r.Bindings)
				for i, seg := range r.Subst.Path {
					if cur == nil {
						break
					}
					if next := Step(cur, seg); next != nil {
						cur = next
						continue
					}
					reportMissingField(p, r, i, cur, seg)
					break
				}
			}
		},
	}
}

// reportMissingField reports segment i of r's path, which selects nothing
// known from a value of type cur (or stops when the field exists but its
// type is unknown).
func reportMissingField(p *Pass, r *check.Ref, i int, cur *types.Type, seg *ast.PathSeg) {
	at := pathText(r.Subst, i)
	switch cur.Kind {
	case types.Object:
		if _, ok := cur.Field(seg.Name); ok || !cur.Closed {
			return
		}
		names := cur.FieldNames()
		sug := closest(seg.Name, names)
		d := p.Reportf(seg, "%s has no field %s%s (fields: %s)", at, seg.Name, didYouMean(sug), listOrNone(names))
		if sug != "" {
			d.WithFix("rename to "+sug, ast.RangeOf(seg.To.Offset()-len(seg.Name), seg.To.Offset()), sug)
		}
	case types.Array:
		if seg.Index {
			return // items of unknown type
		}
		p.Reportf(seg, "%s is %s: .%s selects nothing (use an index such as .0, or foreach over it)", at, cur, seg.Name)
	case types.String, types.Number, types.Integer, types.Boolean, types.Null:
		p.Reportf(seg, "%s is %s: it has no field %s", at, cur, seg.Name)
	}
}

func ruleResultTypeMismatch() *Rule {
	return &Rule{
		ID: "result-type-mismatch", Severity: ast.Warning, Needs: NeedsSchemas,
		Doc: Doc{
			Summary: "A typed value used where its type cannot go: `|length` of an object or number, `foreach` over a number or an object without items, or a tool argument of another JSON type than the tool's inputSchema asks.",
			Why:     "Types come from the outputSchema of the tool that bound the value. `|length` and `foreach` fail at run time on the wrong type; a tool receives an argument its schema refuses. Values without a declared type are never checked.",
			Bad:     "$ tracker.search query=\"x\" -> R   # R.total is an integer\nemit(text=\"${R.total|length}\")\n$ tracker.get id=${R.title}          # id is an integer\n",
			Good:    "emit(text=\"${R.items|length}\")\n$ tracker.get id=${R.items.0.id}\n",
		},
		Run: func(p *Pass) {
			ty := p.typer()
			for _, r := range p.st.idx().filtered {
				f := r.Subst.Filters[0]
				if f.Name == nil || f.Name.Name != "length" {
					continue
				}
				t := ty.Ref(r, len(r.Subst.Path))
				if t == nil || t.Kind == types.Array || t.Kind == types.String || mayHaveItems(t) {
					continue // an envelope object counts its items (eval listView)
				}
				p.Reportf(f, "|length needs a list or a string; %s is %s (the run fails with TypeMismatchError)", pathText(r.Subst, len(r.Subst.Path)), t)
			}
			for _, fe := range p.st.idx().foreachs {
				t := ty.Expr(fe.List)
				if t == nil || ItemType(t) != nil {
					continue
				}
				switch t.Kind {
				case types.Number, types.Integer, types.Boolean:
				case types.Object:
					if mayHaveItems(t) {
						continue
					}
				default:
					continue
				}
				p.Reportf(fe.List, "foreach needs a list; %s is %s", pathText(directSubst(fe.List), len(directSubst(fe.List).Path)), t)
			}
			for _, d := range qualified(p) {
				s, ok := toolOf(p, d).schema()
				if !ok {
					continue
				}
				for _, a := range d.Args {
					if a.Key == nil || lang.IsUniversal(a.Key.Name) || s.Properties[a.Key.Name] == nil {
						continue
					}
					want, have := types.FromSchema(s.Properties[a.Key.Name]), ty.Expr(a.Value)
					if want == nil || have == nil || types.Compatible(want, have) {
						continue
					}
					sub := directSubst(a.Value)
					p.Reportf(a.Value, "%s.%s takes %s for %s; %s is %s", d.Connector.Name, d.Tool.Name, want.Kind, a.Key.Name, pathText(sub, len(sub.Path)), have)
				}
			}
		},
	}
}

// mayHaveItems reports whether a value of object type t may have an
// "items" field, which list operations and foreach use in its place.
func mayHaveItems(t *types.Type) bool {
	if t.Kind != types.Object {
		return false
	}
	_, ok := t.Field("items")
	return ok || !t.Closed
}

func ruleForeachOverText() *Rule {
	return &Rule{
		ID: "foreach-over-text", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`foreach` over a multi-line string literal (a `# Vars:` default or `$set` value).",
			Why:     "foreach walks a list (or the text of a JSON array); any other text is one item, so the body runs once with the whole text, not once per line. Write a list instead. Text that only the run knows (a command's output) gets a run notice when it loops once over several lines.",
			Bad:     "# Vars: NAMES=\"ann\\nbob\"\n...\nforeach N in ${NAMES}:\n    emit(text=\"${N}\")\n",
			Good:    "# Vars: NAMES=[\"ann\", \"bob\"]\n...\nforeach N in ${NAMES}:\n    emit(text=\"${N}\")\n",
		},
		Run: func(p *Pass) {
			ty := p.typer()
			for _, fe := range p.st.idx().foreachs {
				sub := directSubst(fe.List)
				if sub == nil || len(sub.Filters) > 0 {
					continue
				}
				r := ty.ref(sub)
				if r == nil || len(sub.Path) > 0 || !multiLineLiteral(r.Bindings) {
					continue
				}
				p.Reportf(fe.List, "foreach over %s, a multi-line string: the body runs once with the whole text; write a list ([\"a\", \"b\"]) to loop per item", sub.Root.Name)
			}
		},
	}
}

// multiLineLiteral reports whether every binding of a name assigns a
// string literal without substitutions that holds a newline and is not
// the text of a JSON array (which foreach would walk).
func multiLineLiteral(bs []*check.Binding) bool {
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		if b.Kind != check.BindVar && b.Kind != check.BindSet {
			return false
		}
		s, ok := b.Value.(*ast.StringLit)
		if !ok || s.Value == nil {
			return false
		}
		v, lit := s.Value.LitValue()
		if !lit || !strings.Contains(strings.TrimSpace(v), "\n") || strings.HasPrefix(strings.TrimSpace(v), "[") {
			return false
		}
	}
	return true
}
