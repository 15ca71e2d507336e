package lint

import (
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
)

func ruleNoTargets() *Rule {
	return &Rule{
		ID: "no-targets", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A file has neither a target nor a body template, so it does nothing.",
			Why:     "A skill produces output either from its targets or from its body template. Headers alone compile to nothing; add a target (and default:) or a template.",
			Bad:     "# Skill: report\n# Vars: X=hi\n",
			Good:    "# Skill: report\n# Vars: X=hi\n\nReport for ${X}\n",
		},
		Run: func(p *Pass) {
			f := p.File
			if len(f.Targets) > 0 || hasTemplate(f) || len(f.Bad) > 0 {
				return
			}
			r := ast.Range{From: f.Pos(), To: f.Pos()}
			if len(f.Headers) > 0 {
				r = f.Headers[0].Range
			}
			p.Reportf(r, "the skill has no targets and no body template: add a target with a default: line, or write the output as template text")
		},
	}
}

func ruleMissingDefaultTarget() *Rule {
	return &Rule{
		ID: "missing-default-target", Severity: ast.Error, Needs: NeedsSource, Origin: ByParserLinter,
		Doc: Doc{
			Summary: "Targets exist but no `default:` line names the goal (or `default:` names nothing).",
			Why:     "The runtime walks the dependency graph backwards from the goal target. Without a goal it cannot tell which target is the skill's result.",
			Bad:     "fetch:\n    $ llm prompt=\"hi\" -> R\n",
			Good:    "fetch:\n    $ llm prompt=\"hi\" -> R\n\ndefault: fetch\n",
		},
		Run: func(p *Pass) {
			f := p.File
			if len(f.Targets) == 0 || len(f.Defaults) > 0 {
				return
			}
			t := f.Targets[0]
			if len(f.Targets) == 1 && t.Name != nil {
				end := ast.PosOf(len(f.Src))
				text := "\ndefault: " + t.Name.Name + "\n"
				if len(f.Src) > 0 && f.Src[len(f.Src)-1] != '\n' {
					text = "\n" + text
				}
				p.Reportf(t.Name, "no default: line: add \"default: %s\" to name the goal target", t.Name.Name).
					WithFix("add default: "+t.Name.Name, ast.Range{From: end, To: end}, strings.TrimPrefix(text, "\n"))
				return
			}
			if f.Targets[0].Name == nil {
				return
			}
			p.Reportf(f.Targets[0].Name, "no default: line: add \"default: NAME\" naming the goal target (one of %s)", targetList(f))
		},
	}
}

func targetList(f *ast.File) string {
	var names []string
	for _, t := range f.Targets {
		if t.Name != nil {
			names = append(names, t.Name.Name)
		}
	}
	return strings.Join(names, ", ")
}

func targetNames(f *ast.File) []string {
	var names []string
	for _, t := range f.Targets {
		if t.Name != nil {
			names = append(names, t.Name.Name)
		}
	}
	return names
}

func ruleNoEntryTarget() *Rule {
	return &Rule{
		ID: "no-entry-target", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`default:` names a target that does not exist, or the goal is declared twice, so no goal can be determined.",
			Why:     "The goal is where the runtime starts walking dependencies. A misspelt or ambiguous goal means nothing (or the wrong thing) runs.",
			Bad:     "report:\n    emit(text=\"hi\")\n\ndefault: reprot\n",
			Good:    "report:\n    emit(text=\"hi\")\n\ndefault: report\n",
		},
		Run: func(p *Pass) {
			f := p.File
			for i, d := range f.Defaults {
				if i > 0 {
					p.Reportf(d, "more than one default: line: the goal is ambiguous; keep one (the first names %s)", goalName(f.Defaults[0]))
				}
			}
			if len(f.Defaults) == 0 || f.Defaults[0].Goal == nil {
				return
			}
			g := f.Defaults[0].Goal
			if _, ok := p.Info.Targets[g.Name]; ok {
				return
			}
			if len(f.Targets) == 0 {
				p.Reportf(g, "default: names %s but the skill has no targets", g.Name)
				return
			}
			s := closest(g.Name, targetNames(f))
			d := p.Reportf(g, "default: names %s, which is not a target%s", g.Name, didYouMean(s))
			if s != "" {
				d.WithFix("change the goal to "+s, g.Range, s)
			}
		},
	}
}

func goalName(d *ast.DefaultDecl) string {
	if d.Goal == nil {
		return "nothing"
	}
	return d.Goal.Name
}

func ruleOrphanTarget() *Rule {
	return &Rule{
		ID: "orphan-target", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A target is not reachable from the `default:` goal through `needs:`, so it never runs.",
			Why:     "Only the goal and what it needs (transitively) run. An unreachable target is dead code or a missing `needs:` edge.",
			Bad:     "a:\n    emit(text=\"a\")\nb:\n    emit(text=\"b\")\n\ndefault: a\n",
			Good:    "a: b\n    emit(text=\"a\")\nb:\n    emit(text=\"b\")\n\ndefault: a\n",
		},
		Run: func(p *Pass) {
			g := p.Info.Graph
			if g.Goal == nil {
				return
			}
			for _, t := range p.File.Targets {
				if t.Name == nil || g.Reachable[t] || p.Info.Targets[t.Name.Name] != t {
					continue
				}
				p.Reportf(t.Name, "target %s is not reachable from the goal %s, so it never runs: add it to a needs: list or remove it", t.Name.Name, g.Goal.Name.Name)
			}
		},
	}
}

func ruleCircularDependency() *Rule {
	return &Rule{
		ID: "circular-dependency", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "The `needs:` graph has a cycle; the message names it (`a → b → a`).",
			Why:     "Targets run after what they need. A cycle has no valid order, so the skill cannot run. Break the cycle by removing one `needs:` edge.",
			Bad:     "a: b\n    emit(text=\"a\")\nb: a\n    emit(text=\"b\")\n\ndefault: a\n",
			Good:    "a: b\n    emit(text=\"a\")\nb:\n    emit(text=\"b\")\n\ndefault: a\n",
		},
		Run: func(p *Pass) {
			for _, cyc := range p.Info.Graph.Cycles {
				if len(cyc) == 0 {
					continue
				}
				names := make([]string, 0, len(cyc)+1)
				for _, t := range cyc {
					names = append(names, t.Name.Name)
				}
				names = append(names, cyc[0].Name.Name)
				at := needsEdge(cyc[len(cyc)-1], cyc[0])
				d := p.Reportf(at, "circular dependency %s: targets in a cycle can never run; remove one needs: edge", strings.Join(names, " → "))
				for _, t := range cyc[:len(cyc)-1] {
					d.Related = append(d.Related, ast.Related{Range: t.Name.Range, Message: "target " + t.Name.Name + " is part of the cycle"})
				}
			}
		},
	}
}

// needsEdge returns the needs: entry of from that names to (or from's name).
func needsEdge(from, to *ast.Target) Spanner {
	for _, n := range from.Needs {
		if n.Name == to.Name.Name {
			return n
		}
	}
	return from.Name
}

func ruleMissingDependency() *Rule {
	return &Rule{
		ID: "missing-dependency", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `needs:` entry names a target that is not declared.",
			Why:     "The dependency cannot run, so the dependent target cannot either. Usually a typo; the fix renames it to the closest target.",
			Bad:     "helper:\n    emit(text=\"h\")\nmain: helpr\n    emit(text=\"m\")\n\ndefault: main\n",
			Good:    "helper:\n    emit(text=\"h\")\nmain: helper\n    emit(text=\"m\")\n\ndefault: main\n",
		},
		Run: func(p *Pass) {
			var names []string // built for the first missing dependency
			for _, m := range p.Info.Graph.Missing {
				if names == nil {
					names = targetNames(p.File)
				}
				s := closest(m.Name.Name, names)
				d := p.Reportf(m.Name, "target %s needs %s, which is not declared%s", m.From.Name.Name, m.Name.Name, didYouMean(s))
				if s != "" {
					d.WithFix("change the dependency to "+s, m.Name.Range, s)
				}
			}
		},
	}
}

func ruleDuplicateTarget() *Rule {
	return &Rule{
		ID: "duplicate-target", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "Two targets have the same name.",
			Why:     "A second declaration does not replace or extend the first; skillc rejects it instead of silently dropping one body. Rename or merge them.",
			Bad:     "t:\n    emit(text=\"a\")\nt:\n    emit(text=\"b\")\n\ndefault: t\n",
			Good:    "t:\n    emit(text=\"a\")\n    emit(text=\"b\")\n\ndefault: t\n",
		},
		Run: func(p *Pass) {
			dups := append([]*ast.Target(nil), p.Info.Dups...)
			sort.Slice(dups, func(i, j int) bool { return dups[i].Pos() < dups[j].Pos() })
			for _, t := range dups {
				first := p.Info.Targets[t.Name.Name]
				d := p.Reportf(t.Name, "target %s is declared twice: rename one or merge their bodies", t.Name.Name)
				if first != nil {
					d.Related = append(d.Related, ast.Related{Range: first.Name.Range, Message: "first declaration of " + t.Name.Name})
				}
			}
		},
	}
}
