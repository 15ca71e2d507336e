package lint

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// appendInits returns the non-append bindings of an $append target visible
// from the op.
func appendInits(op *check.Op, name string) []*check.Binding {
	var out []*check.Binding
	for _, b := range op.Scope.Lookup(name) {
		if b.Kind != check.BindAppend {
			out = append(out, b)
		}
	}
	return out
}

func ruleUninitializedAppend() *Rule {
	return &Rule{
		ID: "uninitialized-append", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`$append V` where nothing in an enclosing scope initializes V.",
			Why:     "`$append` is type-dispatched on the existing value (list element or string concatenation); without `$set V = []`, `$set V = \"\"` or `# Vars: V=[]` there is nothing to append to.",
			Bad:     "t:\n    foreach I in ${ITEMS}:\n        $append FOUND ${I.id}\n",
			Good:    "t:\n    $set FOUND = []\n    foreach I in ${ITEMS}:\n        $append FOUND ${I.id}\n",
		},
		Run: func(p *Pass) {
			for _, op := range p.st.idx().appends {
				s := op.Stmt.(*ast.AppendStmt)
				if len(appendInits(op, s.Name.Name)) > 0 || initializedInLoopBody(p, op, s.Name.Name) {
					continue
				}
				p.Reportf(s.Name, "$append %s: %s is never initialized in an enclosing scope; add $set %s = [] (or \"\") before it", s.Name.Name, s.Name.Name, s.Name.Name)
			}
		},
	}
}

// initializedInLoopBody reports whether name is bound in a loop scope of
// the skill that does not enclose op (foreach-local-accumulator-target or
// a scope error reported elsewhere).
func initializedInLoopBody(p *Pass, op *check.Op, name string) bool {
	for _, b := range p.st.bindings(name) {
		if b.Scope != nil && b.Scope.Kind == check.ScopeLoop && b.Scope == op.Scope {
			return true
		}
	}
	return false
}

func ruleForeachLocalAccumulator() *Rule {
	return &Rule{
		ID: "foreach-local-accumulator-target", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`$append V` whose initializing `$set V` sits in the same `foreach` body, so V is reset on every iteration.",
			Why:     "Bindings made inside a loop are loop-local; the accumulator starts over each time and is gone after the loop. Initialize it before the loop.",
			Bad:     "foreach I in ${ITEMS}:\n    $set FOUND = []\n    $append FOUND ${I.id}\n",
			Good:    "$set FOUND = []\nforeach I in ${ITEMS}:\n    $append FOUND ${I.id}\n",
		},
		Run: func(p *Pass) {
			for _, op := range p.st.idx().appends {
				s := op.Stmt.(*ast.AppendStmt)
				if len(op.Loops) == 0 {
					continue
				}
				inits := appendInits(op, s.Name.Name)
				local := initializedInLoopBody(p, op, s.Name.Name)
				if !local || !allInScope(inits, op.Scope) {
					continue
				}
				d := p.Reportf(s.Name, "$append %s inside the foreach, but %s is initialized in the same foreach body and is reset every iteration: move the initialization before the loop", s.Name.Name, s.Name.Name)
				for _, b := range inits {
					d.Related = append(d.Related, ast.Related{Range: b.Ident.Range, Message: s.Name.Name + " is initialized here, inside the loop"})
				}
			}
		},
	}
}

func allInScope(bs []*check.Binding, sc *check.Scope) bool {
	for _, b := range bs {
		if b.Scope != sc {
			return false
		}
	}
	return true
}

func ruleAppendToNonList() *Rule {
	return &Rule{
		ID: "append-to-non-list", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`$append V` where V is statically a number, boolean, null or object.",
			Why:     "`$append` adds an element to a list or concatenates to a string; other types have no append. Initialize V as `[]` or `\"\"`.",
			Bad:     "$set COUNT = 0\n$append COUNT 1\n",
			Good:    "$set SEEN = []\n$append SEEN ${I.id}\n",
		},
		Run: func(p *Pass) {
			for _, op := range p.st.idx().appends {
				s := op.Stmt.(*ast.AppendStmt)
				for _, b := range appendInits(op, s.Name.Name) {
					if kind := staticKind(b.Value); kind != "" {
						d := p.Reportf(s.Name, "$append %s: %s is initialized as %s, and only lists and strings can be appended to: initialize it with [] or \"\"", s.Name.Name, s.Name.Name, kind)
						d.Related = append(d.Related, ast.Related{Range: b.Ident.Range, Message: "initialized here"})
						break
					}
				}
			}
		},
	}
}

// staticKind names a literal type that cannot be appended to, or "".
func staticKind(e ast.Expr) string {
	switch e.(type) {
	case *ast.NumberLit:
		return "a number"
	case *ast.BoolLit:
		return "a boolean"
	case *ast.NullLit:
		return "null"
	case *ast.ObjectLit:
		return "an object"
	}
	return ""
}

// isStringInit reports whether e initializes a string accumulator.
func isStringInit(e ast.Expr) bool {
	switch e.(type) {
	case *ast.StringLit, *ast.BareWord:
		return true
	}
	return false
}

func ruleAppendStructuredToString() *Rule {
	return &Rule{
		ID: "append-structured-to-string", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`$append S ${R}` of a structured `$` dispatch result onto a string accumulator.",
			Why:     "Concatenating an object or list onto a string embeds its serialization, which is rarely the text you want. Append a field (`${R.summary}`) or `${R|json}` deliberately.",
			Bad:     "$set OUT = \"\"\n$ tickets.get id=\"1\" -> R\n$append OUT ${R}\n",
			Good:    "$set OUT = \"\"\n$ tickets.get id=\"1\" -> R\n$append OUT \"${R.summary}\\n\"\n",
		},
		Run: func(p *Pass) {
			for _, op := range p.st.idx().appends {
				s := op.Stmt.(*ast.AppendStmt)
				sub, ok := s.Value.(*ast.Subst)
				if !ok || len(sub.Path) > 0 || len(sub.Filters) > 0 || !stringAccumulator(op, s.Name.Name) {
					continue
				}
				r := refOfSubst(p, sub)
				if r == nil || !boundByDispatch(r) {
					continue
				}
				p.Reportf(sub, "$append %s ${%s}: %s is a structured op result appended to a string; append a field (${%s.field}) or ${%s|json}", s.Name.Name, r.Name(), r.Name(), r.Name(), r.Name())
			}
		},
	}
}

func stringAccumulator(op *check.Op, name string) bool {
	inits := appendInits(op, name)
	for _, b := range inits {
		if !isStringInit(b.Value) {
			return false
		}
	}
	return len(inits) > 0
}

// refOfSubst returns the checker's reference for s.
func refOfSubst(p *Pass, s *ast.Subst) *check.Ref {
	if p.st.refOf == nil {
		p.st.refOf = make(map[*ast.Subst]*check.Ref, len(p.Info.Refs))
		for _, r := range p.Info.Refs {
			p.st.refOf[r.Subst] = r
		}
	}
	return p.st.refOf[s]
}

// boundByDispatch reports whether every binding of r's root is a $
// dispatch result other than $ llm / $ json_parse (which return text or
// deliberately parsed values).
func boundByDispatch(r *check.Ref) bool {
	bs := refBinders(r)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		d, ok := bindingOp(b).(*ast.DispatchStmt)
		if !ok || d.Tool == nil || d.Connector == nil && (d.Tool.Name == "llm" || d.Tool.Name == "json_parse") {
			return false
		}
	}
	return true
}

func ruleObjectIterationAdvisory() *Rule {
	return &Rule{
		ID: "object-iteration-advisory", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`foreach` over a raw `$` dispatch result, which may be an envelope object (`{items: [...]}`) rather than an array.",
			Why:     "Data stores and most tools wrap lists in an envelope; iterating the envelope runs once (or fails). Iterate the array field, e.g. `${R.items}`.",
			Bad:     "$ data_read mode=fts query=\"x\" -> R\nforeach I in ${R}:\n    emit(text=\"${I.id}\")\n",
			Good:    "$ data_read mode=fts query=\"x\" -> R\nforeach I in ${R.items}:\n    emit(text=\"${I.id}\")\n",
		},
		Run: func(p *Pass) {
			for _, fe := range p.st.idx().foreachs {
				sub, ok := fe.List.(*ast.Subst)
				if !ok || len(sub.Path) > 0 || len(sub.Filters) > 0 {
					continue
				}
				if r := refOfSubst(p, sub); r != nil && boundByDispatch(r) {
					p.Reportf(sub, "foreach over ${%s}, the raw result of a $ op, which may be an envelope object: iterate its array field (for example ${%s.items})", r.Name(), r.Name())
				}
			}
		},
	}
}
