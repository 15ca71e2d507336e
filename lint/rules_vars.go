package lint

import (
	"strings"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

func ruleUndeclaredVar() *Rule {
	return &Rule{
		ID: "undeclared-var", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `${X}` reference whose root is not ambient, not declared in `# Vars:`, not bound by `$set`, `-> X` or `# Requires:`, and not a `foreach` iterator in scope.",
			Why:     "An unresolved reference fails the op at run time. Usually a typo or a missing `# Vars:` declaration. A `|fallback:\"...\"` filter makes a reference optional.",
			Bad:     "# Vars: NAME=world\nt:\n    emit(text=\"hello ${NAMEE}\")\n\ndefault: t\n",
			Good:    "# Vars: NAME=world\nt:\n    emit(text=\"hello ${NAME}\")\n\ndefault: t\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, r := range p.st.idx().unresolved {
				if p.skip(r.Subst.Range) || r.Context == check.InTemplate || !unresolved(r) || inUnsafeShellLegacy(p, r) || inlineBound(p, r) {
					continue
				}
				reportUnresolved(p, r, "undeclared variable")
			}
		},
	}
}

// unresolved reports whether a reference resolves to nothing and has no
// |fallback rescuing it.
func unresolved(r *check.Ref) bool {
	if r.Subst.Bad != "" || r.Subst.Root == nil || r.HasFallback {
		return false
	}
	return !r.Declared()
}

// inUnsafeShellLegacy reports whether r is a legacy $(x) inside an
// unsafe shell command, where it may be bash (unsafe-shell-ambiguous-subst
// reports it).
func inUnsafeShellLegacy(p *Pass, r *check.Ref) bool {
	if !r.Subst.Legacy || r.Op == nil {
		return false
	}
	c, ok := r.Op.Stmt.(*ast.CallStmt)
	return ok && isUnsafeShell(c)
}

// reportUnresolved reports r with a did-you-mean among the names visible
// at its scope.
func reportUnresolved(p *Pass, r *check.Ref, what string) {
	name := r.Name()
	s := closestIn(name, p.st.namesVisible(p.File, r.Scope))
	msg := what + " " + name + hint(p, r) + didYouMean(s)
	d := p.Reportf(r.Subst.Root, "%s", msg)
	if s != "" {
		d.WithFix("rename to "+s, r.Subst.Root.Range, s)
	}
}

// namesVisible returns the names a reference in scope could have meant:
// those bound in scope and around it, the ambient ones, the targets, and
// ERROR_CONTEXT inside an else: handler. Computed once per scope of the
// file (a file with many unresolved references asks for the skill scope
// each time); the list itself only when the memo of closestIn does not
// know the answer (see nameSet).
func (s *state) namesVisible(f *ast.File, scope *check.Scope) *nameSet {
	if c, ok := s.visible[scope]; ok {
		return c
	}
	inElse := scope.InElse()
	ns := &nameSet{fill: func() []string {
		// a name bound in two scopes is listed twice: closest's answer
		// does not depend on repeats (a repeat of the best is no tie)
		n := 0
		scope.EachName(func(string) { n++ })
		cands := make([]string, 0, n+len(check.Ambient())+len(f.Targets)+1)
		scope.EachName(func(n string) { cands = append(cands, n) })
		cands = append(cands, check.Ambient()...)
		for _, t := range f.Targets { // targetNames without its growing list
			if t.Name != nil {
				cands = append(cands, t.Name.Name)
			}
		}
		if inElse {
			cands = append(cands, "ERROR_CONTEXT")
		}
		return cands
	}}
	scope.EachName(ns.addKey)
	for _, n := range check.Ambient() {
		ns.addKey(n)
	}
	for _, t := range f.Targets {
		if t.Name != nil {
			ns.addKey(t.Name.Name)
		}
	}
	if inElse {
		ns.addKey("ERROR_CONTEXT")
	}
	if s.visible == nil {
		s.visible = map[*check.Scope]*nameSet{}
	}
	s.visible[scope] = ns
	return ns
}

// hint explains why a name that is bound somewhere is not visible here.
func hint(p *Pass, r *check.Ref) string {
	name := r.Name()
	if name == "ERROR_CONTEXT" {
		return " (ERROR_CONTEXT is bound only inside a target's else: handler)"
	}
	if b := p.st.loopBinding(name); b != nil {
		return " (it is bound only inside the foreach at line " + itoa(p.st.bindLine(b, b.Scope.Node.Pos())) + ")"
	}
	return ": declare it in # Vars:, bind it with $set or -> " + name + ", or add |fallback:\"...\""
}

func ruleUnsetTemplateVar() *Rule {
	return &Rule{
		ID: "unset-template-var", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `${X}` in the body template that no `# Vars:` declaration or body binding provides.",
			Why:     "The template is rendered after the targets run; every reference must be an input or bound by the body, or the render fails.",
			Bad:     "# Vars: WHO=world\n\nHello, ${WHOM}!\n",
			Good:    "# Vars: WHO=world\n\nHello, ${WHO}!\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, r := range p.st.idx().unresolved {
				if !p.skip(r.Subst.Range) && r.Context == check.InTemplate && unresolved(r) && !inlineBound(p, r) {
					reportUnresolved(p, r, "template variable")
				}
			}
		},
	}
}

func ruleUnknownReturnsRef() *Rule {
	return &Rule{
		ID: "unknown-returns-ref", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `# Returns:` name that nothing in the skill ever binds.",
			Why:     "`# Returns:` is the export surface callers read as `${R.X}`. A name that is never bound is always missing for them.",
			Bad:     "# Returns: SUMMARY\nt:\n    $ llm prompt=\"hi\" -> SUMARY\n\ndefault: t\n",
			Good:    "# Returns: SUMMARY\nt:\n    $ llm prompt=\"hi\" -> SUMMARY\n\ndefault: t\n",
		},
		Run: func(p *Pass) {
			var bound []string // every bound name, sorted; built for the first unbound return
			for _, id := range p.Info.Returns {
				if p.st.bound(id.Name) || lang.IsEnvelopeField(id.Name) {
					continue // an envelope field is reserved-keyword's
				}
				if bound == nil {
					bound = p.st.boundNames()
				}
				s := closest(id.Name, bound)
				d := p.Reportf(id, "# Returns: names %s, which the skill never binds%s", id.Name, didYouMean(s))
				if s != "" {
					d.WithFix("rename to "+s, id.Range, s)
				}
			}
		},
	}
}

func ruleReservedKeyword() *Rule {
	return &Rule{
		ID: "reserved-keyword", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A skill, variable, return, target or iterator named with a reserved word (`emit`, `if`, `default`, `unsafe`, `while`, ...), or a `# Returns:` name that is a field of the result envelope (`outputs`, `transcript`, `errors`, ...).",
			Why:     "Reserved words belong to the grammar (ops, control flow, future syntax). Reserved words are case-sensitive: `If` and `Default` are fine. A caller's `-> R` always carries the envelope fields (" + codeList(lang.EnvelopeFields()) + "), so a return of the same name would be shadowed by them.",
			Bad:     "# Vars: default=foo\n",
			Good:    "# Vars: DEFAULT_MODE=foo\n",
		},
		Run: func(p *Pass) {
			shape := reservedShape()
			flag := func(id *ast.Ident, what string) {
				if id != nil && shape.has(id.Name) {
					p.Reportf(id, "%s %q is a reserved word: choose another name", what, id.Name)
				}
			}
			for _, h := range p.File.Headers {
				switch h.Kind {
				case ast.HeaderSkill:
					for _, n := range h.Names {
						flag(n, "skill name")
					}
				case ast.HeaderVars:
					for _, v := range h.Vars {
						flag(v.Name, "variable")
					}
				case ast.HeaderReturns:
					for _, n := range h.Names {
						flag(n, "return")
						envelopeReturn(p, n)
					}
				case ast.HeaderRequires:
					for _, r := range h.Reqs {
						if r.Bind != nil {
							flag(r.Bind.Name, "variable")
						}
					}
				}
			}
			for _, t := range p.File.Targets {
				flag(t.Name, "target")
			}
			for _, b := range p.Info.Binds {
				switch b.Kind {
				case check.BindSet, check.BindOp:
					flag(b.Ident, "variable")
				case check.BindIter:
					flag(b.Ident, "iterator")
				}
			}
		},
	}
}

// envelopeReturn reports a # Returns: name that the result envelope
// already uses.
func envelopeReturn(p *Pass, id *ast.Ident) {
	if id == nil || !lang.IsEnvelopeField(id.Name) {
		return
	}
	p.Reportf(id, "# Returns: names %s, a field of the result envelope every caller's -> R carries: ${R.%s} would be the envelope's, not this value; rename it (e.g. %s)", id.Name, id.Name, strings.ToUpper(id.Name))
}

func ruleNumericSubscript() *Rule {
	return &Rule{
		ID: "numeric-subscript", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A reference with a numeric path segment (`${X.0.field}`).",
			Why:     "Positional access depends on the order a connector happens to return; it breaks silently when the order or length changes. Iterate with `foreach`, or have a tool return the item you need.",
			Bad:     "emit(text=\"${ISSUES.0.summary}\")\n",
			Good:    "foreach I in ${ISSUES}:\n    emit(text=\"${I.summary}\")\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().pathed {
				for _, seg := range r.Subst.Path {
					if seg.Index {
						p.Reportf(seg, "numeric subscript .%s on %s depends on result order: iterate with foreach or select the item in a tool", seg.Name, r.Name())
						break
					}
				}
			}
		},
	}
}

func ruleTranscriptFootgun() *Rule {
	return &Rule{
		ID: "transcript-footgun", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`${R.transcript}` of an `execute_skill` result used as if it were the child's output.",
			Why:     "The transcript is the child's emit trace, not its result. Read the child's declared `# Returns:` (`${R.X}`) or its `outputs`.",
			Bad:     "execute_skill(name=\"child\") -> R\nemit(text=\"${R.transcript}\")\n",
			Good:    "execute_skill(name=\"child\") -> R\nemit(text=\"${R.SUMMARY}\")\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().pathed {
				if len(r.Subst.Path) == 0 || r.Subst.Path[0].Name != "transcript" {
					continue
				}
				if boundByChildSkill(r) {
					p.Reportf(r.Subst, "${%s.transcript} is the child skill's emit trace, not its output: read a declared # Returns: value (${%s.NAME}) or ${%s.outputs}", r.Name(), r.Name(), r.Name())
				}
			}
		},
	}
}

// boundByChildSkill reports whether every binding of r's root comes from
// an execute_skill op.
func boundByChildSkill(r *check.Ref) bool {
	bs := refBinders(r)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		if _, ok := childSkillOp(bindingOp(b)); !ok {
			return false
		}
	}
	return true
}

// childSkillOp reports whether s runs a child skill.
func childSkillOp(s ast.Stmt) (ast.Stmt, bool) {
	switch s := s.(type) {
	case *ast.CallStmt:
		return s, callName(s) == "execute_skill"
	case *ast.DispatchStmt:
		return s, s.Connector == nil && s.Tool != nil && s.Tool.Name == "execute_skill"
	}
	return nil, false
}

func ruleDeprecatedSubstitutionShape() *Rule {
	return &Rule{
		ID: "deprecated-substitution-shape", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "The legacy `$(NAME)` substitution shape.",
			Why:     "`${NAME}` is the canonical form; `$(...)` collides with bash command substitution inside shell commands. The fix rewrites it.",
			Bad:     "emit(text=\"hello $(NAME)\")\n",
			Good:    "emit(text=\"hello ${NAME}\")\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().legacyRefs {
				s := r.Subst
				if !s.Legacy || s.Bad != "" || s.Root == nil {
					continue
				}
				if inUnsafeShellLegacy(p, r) && !r.Declared() {
					continue
				}
				src := p.Text(s.Range)
				if len(src) < 3 {
					continue
				}
				repl := "${" + src[2:len(src)-1] + "}"
				p.Reportf(s, "legacy substitution %s: write %s", src, repl).
					WithFix("rewrite as "+repl, s.Range, repl)
			}
		},
	}
}

// inlineBound reports whether r's root is a # Returns: name of a # Type:
// data skill that the file inlines (inline(skill="x") binds the data
// skill's returns before the targets run). It needs the skill store; the
// set is computed once per file.
func inlineBound(p *Pass, r *check.Ref) bool {
	if !p.Ctx.SkillsKnown || p.Ctx.Skills == nil {
		return false
	}
	if p.st.inlined == nil {
		p.st.inlined = map[string]bool{}
		for _, c := range p.st.idx().callsNamed("inline") {
			a := c.Arg("skill")
			if a == nil {
				continue
			}
			name, ok := litString(a.Value)
			if !ok {
				continue
			}
			if si, found := p.Ctx.Skills.Lookup(name); found && si.Type == "data" {
				for _, ret := range si.Returns {
					p.st.inlined[ret] = true
				}
			}
		}
	}
	return p.st.inlined[r.Name()]
}

// wordShape is the first bytes and the length range of the reserved
// words: a test in front of lang.Reserved that most names fail, because
// reserved-keyword asks about every binding of the skill.
type wordShape struct {
	first          [256]bool
	minLen, maxLen int
}

// has reports whether name is reserved (lang.Reserved).
func (t *wordShape) has(name string) bool {
	if len(name) < t.minLen || len(name) > t.maxLen || !t.first[name[0]] {
		return false
	}
	return lang.Reserved(name)
}

var reservedShape = sync.OnceValue(func() *wordShape {
	t := &wordShape{minLen: 1 << 30}
	for _, w := range lang.ReservedWords() {
		if w == "" {
			continue
		}
		t.first[w[0]] = true
		t.minLen, t.maxLen = min(t.minLen, len(w)), max(t.maxLen, len(w))
	}
	return t
})
