package lint

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// ruleMalformedCall reports function-call ops whose arguments or binding
// the runtime rejects: check must not pass what run refuses.
func ruleMalformedCall() *Rule {
	return &Rule{
		ID: "malformed-call", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A function-call op the runtime rejects: an unknown keyword argument, a skill named twice (`name=` and `skill_name=`), `-> R` on an op that binds nothing, or a malformed `shell(argv=...)` / `notify(connectors=...)`.",
			Why:     "These calls fail only when the op is reached at run time, maybe after other effects. The arguments of each op are listed by `skillc explain` and the language reference; `argv=` is a non-empty list of strings, never combined with `command=` or `unsafe=true`.",
			Bad:     "emit(text=\"x\") -> R\nexecute_skill(skill=\"helper\")\nshell(argv=[\"ls\", 42], unsafe=true)\n",
			Good:    "emit(text=\"x\")\nexecute_skill(name=\"helper\") -> R\nshell(argv=[\"ls\", \"42\"])\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, g := range p.st.idx().groups {
				spec, ok := lang.Spec(g.name) // the catalog's own spec, only read here
				if !ok || spec.Class != lang.Intrinsic {
					continue
				}
				cs := &callSpec{spec: spec, skillArgs: spec.SkillArgs()}
				for _, c := range g.calls {
					if p.skip(c.Range) {
						continue
					}
					checkCallBinding(p, c, cs.spec)
					checkCallKwargs(p, c, cs)
					switch spec.Name {
					case "shell":
						checkShellArgs(p, c)
					case "notify":
						if a := c.Arg("connectors"); a != nil {
							checkListArg(p, "notify", a)
						}
					}
				}
			}
		},
	}
}

// callSpec is an intrinsic's spec with what checkCallKwargs derives from
// it, computed once for all the calls of one name.
type callSpec struct {
	spec      *lang.OpSpec
	kwargs    []string // spec.Kwargs(), on first use
	skillArgs []string
}

// checkCallBinding reports -> R on an op that binds nothing.
func checkCallBinding(p *Pass, c *ast.CallStmt, spec *lang.OpSpec) {
	if c.Bind == nil || spec.Binding != lang.BindNone {
		return
	}
	p.Reportf(c.Bind, "%s binds nothing: remove %s", spec.Name, p.Text(c.Bind.Range)).
		WithFix("remove the binding", c.Bind.Range, "")
}

// checkCallKwargs reports kwargs the op does not take and a skill named
// by both its kwarg and an alias.
func checkCallKwargs(p *Pass, c *ast.CallStmt, cs *callSpec) {
	spec := cs.spec
	for _, a := range c.Args {
		if a.Key == nil {
			continue
		}
		key := a.Key.Name
		if _, ok := spec.Param(key); ok || key == "timeout" || key == "approved" {
			continue
		}
		if cs.kwargs == nil {
			cs.kwargs = spec.Kwargs()
		}
		kwargs := cs.kwargs
		if s := closest(key, kwargs); s != "" {
			p.Reportf(a.Key, "%s has no argument %s — did you mean %s? (arguments: %s)", spec.Name, key, s, strings.Join(kwargs, ", ")).
				WithFix("rename to "+s, a.Key.Range, s)
			continue
		}
		p.Reportf(a.Key, "%s has no argument %s (arguments: %s)", spec.Name, key, strings.Join(kwargs, ", "))
	}
	names := cs.skillArgs
	if len(names) < 2 {
		return // a skill can be named twice only when its kwarg has an alias
	}
	var given []*ast.Arg
	for _, n := range names {
		if a := c.Arg(n); a != nil {
			given = append(given, a)
		}
	}
	if len(given) > 1 {
		p.Reportf(given[1].Key, "%s names the skill twice (%s= and %s=): keep %s=", spec.Name, given[0].Key.Name, given[1].Key.Name, names[0])
	}
}

// checkShellArgs checks argv=: a non-empty list of strings, never with
// command= or unsafe=true.
func checkShellArgs(p *Pass, c *ast.CallStmt) {
	a := c.Arg("argv")
	if a == nil || a.Value == nil {
		return
	}
	if cmd := c.Arg("command"); cmd != nil {
		p.Reportf(cmd.Key, "shell takes argv= or command=, not both: drop command=")
	}
	if u := c.Arg("unsafe"); u != nil && !isLiteral(u.Value, "false") {
		p.Reportf(u.Key, "unsafe= runs a command line through bash and does not combine with argv=: drop unsafe=, or write shell(command=\"...\", unsafe=true)")
	}
	l := checkListArg(p, "shell", a)
	if l == nil {
		return
	}
	if len(l.Elems) == 0 {
		p.Reportf(a.Value, "shell argv= is empty: the first element is the binary to run")
	}
	for _, e := range l.Elems {
		if kind := nonStringKind(e); kind != "" {
			src := p.Text(e.Span())
			p.Reportf(e, "shell argv= elements are strings: %s is %s; quote it", src, kind).
				WithFix("quote it", e.Span(), `"`+src+`"`)
		}
	}
}

// checkListArg reports a kwarg of op whose value is not a list (a single
// ${X} is accepted: its value is checked at run time) and returns the
// list literal, or nil.
func checkListArg(p *Pass, op string, a *ast.Arg) *ast.ListLit {
	switch v := a.Value.(type) {
	case *ast.ListLit:
		return v
	case *ast.Subst, nil:
		return nil
	case *ast.BareWord:
		if singleSubstText(v.Value) {
			return nil
		}
	case *ast.StringLit:
		if singleSubstText(v.Value) {
			return nil
		}
	}
	p.Reportf(a.Value, "%s %s= must be a list: write %s=[...]", op, a.Key.Name, a.Key.Name)
	return nil
}

// singleSubstText reports whether t is exactly one ${...}.
func singleSubstText(t *ast.Text) bool {
	if t == nil || len(t.Parts) != 1 {
		return false
	}
	_, ok := t.Parts[0].(*ast.Subst)
	return ok
}

// nonStringKind names the kind of a list element that is not a string
// ("a number", ...), or "" for strings and substitutions.
func nonStringKind(e ast.Expr) string {
	switch e.(type) {
	case *ast.NumberLit:
		return "a number"
	case *ast.BoolLit:
		return "a boolean"
	case *ast.NullLit:
		return "null"
	case *ast.ListLit:
		return "a list"
	case *ast.ObjectLit:
		return "an object"
	}
	return ""
}

// isLiteral reports whether e is the literal lit (a word, string or
// boolean).
func isLiteral(e ast.Expr, lit string) bool {
	v, ok := check.LitString(e)
	return ok && v == lit
}
