package lint

import (
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// skillRefs returns the ops that name another skill literally
// (execute_skill, $ execute_skill, inline), computed once per file (the
// callers only read it).
func skillRefs(p *Pass) []skillRef {
	done, refs := &p.st.sRefsDone, &p.st.sRefs
	if p.onlyE != nil {
		// a local rule running over the edited target only (see incr):
		// both rules that read the list are local
		done, refs = &p.st.sRefsEDone, &p.st.sRefsE
	}
	if *done {
		return *refs
	}
	var out []skillRef
	for _, s := range p.st.idx().argOps {
		if p.skip(s.Span()) {
			continue
		}
		if a, name, ok := skillRefLit(s); ok {
			out = append(out, skillRef{op: s, arg: a, name: name})
		}
	}
	*refs, *done = out, true
	return out
}

type skillRef struct {
	op   ast.Stmt
	arg  *ast.Arg
	name string
}

func (r skillRef) verb() string {
	if callName(r.op) == "inline" {
		return "inline"
	}
	return "execute_skill"
}

func ruleUnknownSkillReference() *Rule {
	return &Rule{
		ID: "unknown-skill-reference", Severity: ast.Warning, Needs: NeedsStore,
		Doc: Doc{
			Summary: "`execute_skill`/`inline` naming a skill the skill store does not have.",
			Why:     "The call fails when it runs (execute_skill) or compiles (inline). Usually a typo; a close name gets a fix.",
			Bad:     "execute_skill(name=\"clasifier\") -> V\n",
			Good:    "execute_skill(name=\"classifier\") -> V\n",
		},
		local: true,
		Run: func(p *Pass) {
			if !p.Ctx.SkillsKnown || p.Ctx.Skills == nil {
				return
			}
			for _, r := range skillRefs(p) {
				if p.skip(r.arg.Range) {
					continue
				}
				if _, ok := p.Ctx.Skills.Lookup(r.name); ok {
					continue
				}
				if p.Ctx.SkillsImplicit && r.verb() == "inline" {
					continue // missing-skillstore-for-data-ref reports it
				}
				s := closest(r.name, p.Ctx.Skills.Names())
				d := p.Reportf(r.arg.Value, "%s names skill %q, which the skill store does not have%s", r.verb(), r.name, didYouMean(s))
				if s != "" {
					d.WithFix("use "+s, r.arg.Value.Span(), quoteLike(r.arg.Value, s))
				}
			}
		},
	}
}

func ruleUnknownTemplateReference() *Rule {
	return &Rule{
		ID: "unknown-template-reference", Severity: ast.Warning, Needs: NeedsStore,
		Doc: Doc{
			Summary: "A `# Templates:` name that the skill store does not have.",
			Why:     "Templates are other stored skills; a missing one cannot be offered or inlined.",
			Bad:     "# Templates: voice-rulez\n",
			Good:    "# Templates: voice-rules\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.SkillsKnown || p.Ctx.Skills == nil {
				return
			}
			for _, h := range p.File.HeadersOf(ast.HeaderTemplates) {
				for _, n := range h.Names {
					if _, ok := p.Ctx.Skills.Lookup(n.Name); ok {
						continue
					}
					s := closest(n.Name, p.Ctx.Skills.Names())
					d := p.Reportf(n, "template %s is not in the skill store%s", n.Name, didYouMean(s))
					if s != "" {
						d.WithFix("use "+s, n.Range, s)
					}
				}
			}
		},
	}
}

func ruleDisabledSkillReference() *Rule {
	return &Rule{
		ID: "disabled-skill-reference", Severity: ast.Error, Needs: NeedsStore,
		Doc: Doc{
			Summary: "`execute_skill`/`inline` naming a skill whose status is Disabled.",
			Why:     "The runtime refuses to run or inline a disabled skill, so this op always fails.",
			Bad:     "execute_skill(name=\"old-classifier\") -> V   # old-classifier is Disabled\n",
			Good:    "execute_skill(name=\"classifier\") -> V\n",
		},
		local: true,
		Run: func(p *Pass) {
			if !p.Ctx.SkillsKnown || p.Ctx.Skills == nil {
				return
			}
			for _, r := range skillRefs(p) {
				if si, ok := p.Ctx.Skills.Lookup(r.name); ok && si.Status == "Disabled" {
					d := p.Reportf(r.arg.Value, "%s names skill %q, which is Disabled: the op will fail", r.verb(), r.name)
					d.Related = append(d.Related, disabledAt(si))
				}
			}
		},
	}
}

func ruleReferenceToDisabledSkill() *Rule {
	return &Rule{
		ID: "reference-to-disabled-skill", Severity: ast.Warning, Needs: NeedsStore,
		Doc: Doc{
			Summary: "A non-executing reference to a Disabled skill: a `# Templates:` entry or `$ skill_read name=...` (companion of disabled-skill-reference, which covers calls).",
			Why:     "The reference still resolves, but to a skill that has been withdrawn; it is probably stale.",
			Bad:     "# Templates: old-voice   # old-voice is Disabled\n",
			Good:    "# Templates: voice-rules\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.SkillsKnown || p.Ctx.Skills == nil {
				return
			}
			disabled := func(name string) (SkillInfo, bool) {
				si, ok := p.Ctx.Skills.Lookup(name)
				return si, ok && si.Status == "Disabled"
			}
			for _, h := range p.File.HeadersOf(ast.HeaderTemplates) {
				for _, n := range h.Names {
					if si, ok := disabled(n.Name); ok {
						d := p.Reportf(n, "template %s is Disabled", n.Name)
						d.Related = append(d.Related, disabledAt(si))
					}
				}
			}
			for _, d := range p.st.idx().dispatches {
				if d.Connector != nil || d.Tool == nil || d.Tool.Name != "skill_read" {
					continue
				}
				if a := d.Arg("name"); a != nil {
					if v, ok := litString(a.Value); ok {
						if si, dis := disabled(v); dis {
							d := p.Reportf(a.Value, "skill_read reads %q, which is Disabled", v)
							d.Related = append(d.Related, disabledAt(si))
						}
					}
				}
			}
		},
	}
}

// resultMeta are the fields every execute_skill result carries besides
// the child's declared returns.
var resultMeta = []string{"outputs", "output", "transcript", "final_vars", "errors", "fallbacks", "status", "ok", "trace_id", "duration_ms", "emissions", "result"}

func ruleUnexportedFinalVarAccess() *Rule {
	return &Rule{
		ID: "unexported-final-var-access", Severity: ast.Warning, Needs: NeedsStore,
		Doc: Doc{
			Summary: "`${R.X}` on an `execute_skill` result where X is not in the child's `# Returns:`.",
			Why:     "Only declared returns cross the composition boundary; the child's other variables are filtered out, so the reference is always missing.",
			Bad:     "execute_skill(name=\"classifier\") -> R   # classifier: # Returns: VERDICT\nemit(text=\"${R.SCORE}\")\n",
			Good:    "execute_skill(name=\"classifier\") -> R\nemit(text=\"${R.VERDICT}\")\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.SkillsKnown || p.Ctx.Skills == nil {
				return
			}
			for _, r := range p.st.idx().pathed {
				field, seg := returnField(r)
				if seg == nil {
					continue
				}
				child, ok := childOf(p, r)
				if !ok || contains(child.Returns, field) {
					continue
				}
				s := closest(field, child.Returns)
				d := p.Reportf(seg, "skill %s does not export %s (its # Returns: is %s)%s", child.Name, field, listOrNone(child.Returns), didYouMean(s))
				if s != "" && !strings.HasPrefix(p.Text(seg.Range), ".final_vars") {
					d.WithFix("use "+s, ast.Range{From: seg.From + 1, To: seg.To}, s)
				}
			}
		},
	}
}

// returnField returns the child variable r reads: ${R.X} or
// ${R.final_vars.X}.
func returnField(r *check.Ref) (string, *ast.PathSeg) {
	path := r.Subst.Path
	if len(path) == 0 || r.HasFallback {
		return "", nil
	}
	if path[0].Name == "final_vars" {
		if len(path) < 2 {
			return "", nil
		}
		return path[1].Name, path[1]
	}
	if contains(resultMeta, path[0].Name) || path[0].Index {
		return "", nil
	}
	return path[0].Name, path[0]
}

// childOf returns the stored child skill whose result r's root holds.
func childOf(p *Pass, r *check.Ref) (SkillInfo, bool) {
	bs := refBinders(r)
	if len(bs) != 1 {
		return SkillInfo{}, false
	}
	op, ok := childSkillOp(bindingOp(bs[0]))
	if !ok {
		return SkillInfo{}, false
	}
	_, name, lit := skillRefLit(op)
	if !lit {
		return SkillInfo{}, false
	}
	return p.Ctx.Skills.Lookup(name)
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && filepath.Clean(aa) == filepath.Clean(bb)
}

// storeCopies splits the store's files for this skill's name into this
// file and the others.
func storeCopies(p *Pass, name string) (self bool, others []string) {
	si, ok := p.Ctx.Skills.Lookup(name)
	if !ok {
		return false, nil
	}
	for _, f := range si.Files {
		if sameFile(f, p.Ctx.FilePath) {
			self = true
		} else {
			others = append(others, f)
		}
	}
	return self, others
}

// storedCopies returns a related location at the `# Skill:` name of each
// of the other stored files declaring name.
func storedCopies(p *Pass, name string, others []string, msg string) []ast.Related {
	si, _ := p.Ctx.Skills.Lookup(name)
	out := make([]ast.Related, 0, len(others))
	for _, f := range others {
		out = append(out, si.Declared(f, msg))
	}
	return out
}

// disabledAt is the related location of a Disabled skill's status header.
func disabledAt(si SkillInfo) ast.Related {
	return ast.Related{File: si.File, Range: si.StatusAt, Message: "skill " + si.Name + " is declared Disabled here"}
}

func skillHeaderName(f *ast.File) *ast.Ident {
	if h := f.Header(ast.HeaderSkill); h != nil && len(h.Names) == 1 {
		return h.Names[0]
	}
	return nil
}

func ruleSkillNameCollision() *Rule {
	return &Rule{
		ID: "skill-name-collision", Severity: ast.Info, Needs: NeedsStore,
		Doc: Doc{
			Summary: "The skill store already holds a different skill body under this file's `# Skill:` name.",
			Why:     "Skills are stored by name; saving this file would replace the stored skill. Rename one of them unless that is intended.",
			Bad:     "# Skill: morning-brief   # another morning-brief is in the store\n",
			Good:    "# Skill: morning-brief-ops\n",
		},
		Run: func(p *Pass) {
			id := skillHeaderName(p.File)
			if !p.Ctx.SkillsKnown || p.Ctx.SkillsImplicit || p.Ctx.Skills == nil || id == nil {
				return
			}
			self, others := storeCopies(p, id.Name)
			if !self && len(others) > 0 {
				d := p.Reportf(id, "the skill store already has a skill named %s: saving this one replaces it", id.Name)
				d.Related = storedCopies(p, id.Name, others, "the stored skill "+id.Name)
			}
		},
	}
}

func ruleDuplicateSkillName() *Rule {
	return &Rule{
		ID: "duplicate-skill-name", Severity: ast.Info, Needs: NeedsStore,
		Doc: Doc{
			Summary: "This stored skill shares its `# Skill:` name with another skill in the store.",
			Why:     "The store resolves a name to one body; which copy runs depends on load order. Give each skill a unique name.",
			Bad:     "skills/a/report.skill.md and skills/b/report.skill.md both declare # Skill: report\n",
			Good:    "# Skill: report-daily / # Skill: report-weekly\n",
		},
		Run: func(p *Pass) {
			id := skillHeaderName(p.File)
			if !p.Ctx.SkillsKnown || p.Ctx.SkillsImplicit || p.Ctx.Skills == nil || id == nil {
				return
			}
			self, others := storeCopies(p, id.Name)
			if self && len(others) > 0 {
				d := p.Reportf(id, "skill name %s is also declared by another skill in the skill store", id.Name)
				d.Related = storedCopies(p, id.Name, others, "skill name "+id.Name+" also declared here")
			}
		},
	}
}

func ruleMissingSkillstoreForDataRef() *Rule {
	return &Rule{
		ID: "missing-skillstore-for-data-ref", Severity: ast.Error, Needs: NeedsStoreAbsent,
		Doc: Doc{
			Summary: "`inline(skill=...)` while no skill store is configured.",
			Why:     "inline resolves a `# Type: data` skill from the store at compile time; with no store there is nothing to inline. Configure a skills directory (skillsDir / SKILLSCRIPT_SKILLS_DIR).",
			Bad:     "inline(skill=\"voice-guide\")   # no skill store configured\n",
			Good:    "inline(skill=\"voice-guide\")   # with skillsDir configured\n",
		},
		Run: func(p *Pass) {
			if p.Ctx.SkillsKnown && !p.Ctx.SkillsImplicit {
				return
			}
			for _, c := range p.st.idx().callsNamed("inline") {
				if p.Ctx.SkillsImplicit {
					// The skill's directory stands in for the store: an
					// inline it resolves runs; any other is the same
					// failure as with no store at all.
					if _, name, ok := skillRefLit(c); ok && p.Ctx.Skills != nil {
						if _, found := p.Ctx.Skills.Lookup(name); found {
							continue
						}
						p.Reportf(c.Name, "inline(...) needs a skill store to resolve data skill %q from; none is configured and the skill's directory does not have it: set skillsDir or SKILLSCRIPT_SKILLS_DIR, or pass --skills", name)
						continue
					}
				}
				p.Reportf(c.Name, "inline(...) needs a skill store to resolve the data skill from, and none is configured: set skillsDir or SKILLSCRIPT_SKILLS_DIR")
			}
		},
	}
}
