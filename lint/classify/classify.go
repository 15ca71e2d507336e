// Package classify is the classification rule set of the linter: the
// rules over # Classification:, each owning the problems of one code of
// the shared validator (internal/classification), and the cross-check of
// effect_mode=read_only against the approval footprint.
package classify

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/lint"
)

// Rules returns the classification rule set.
func Rules() []*lint.Rule {
	return []*lint.Rule{
		ruleClassificationValue(),
		ruleClassificationSidecarDirect(),
		ruleClassificationAttachTargets(),
		ruleClassificationDirectTargets(),
		ruleClassificationFootprint(),
	}
}

// classificationRule is one of the rules over # Classification:, each
// owning the problems of one code of the shared validator
// (internal/classification), which the SKILL.md validator and the gateway
// use too.
func classificationRule(id, code string, doc lint.Doc) *lint.Rule {
	return &lint.Rule{
		ID: id, Severity: ast.Error, Needs: lint.NeedsSource, Doc: doc,
		Run: func(p *lint.Pass) {
			_, probs := classification.Of(p.File)
			for _, pr := range probs {
				if pr.Rule != code {
					continue
				}
				d := p.Reportf(pr.Range, "%s", pr.Message)
				d.Fixes = append(d.Fixes, pr.Fixes...)
			}
		},
	}
}

func ruleClassificationValue() *lint.Rule {
	return classificationRule("classification-value", classification.CodeValue, lint.Doc{
		Summary: "A `# Classification:` with an unknown key or value (with the closest valid one), a key given twice, or no `role`, `invocation` or `effect_mode`.",
		Why:     "The skill gateway decides from these values whether a skill is recommended, may be called directly or attached, and whether it fits a read-only request; a misspelt value would silently change that. Use role=procedure|utility|sidecar, invocation=direct|attach|both, effect_mode=read_only|enrich|control_signal.",
		Bad:     "# Skill: audit-run\n# Classification: role=sidecr invocation=attach effect_mode=read_only attach_targets=run\n",
		Good:    "# Skill: audit-run\n# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=run\n",
	})
}

func ruleClassificationSidecarDirect() *lint.Rule {
	return classificationRule("classification-sidecar-direct", classification.CodeSidecarDirect, lint.Doc{
		Summary: "`role=sidecar` with `invocation=direct`.",
		Why:     "A sidecar observes, audits or controls a live execution; called on its own it has nothing to work on. The gateway never recommends sidecars for direct calls. Use invocation=attach (or both) with attach_targets.",
		Bad:     "# Skill: audit-run\n# Classification: role=sidecar invocation=direct effect_mode=read_only\n",
		Good:    "# Skill: audit-run\n# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=run\n",
	})
}

func ruleClassificationAttachTargets() *lint.Rule {
	return classificationRule("classification-attach-targets", classification.CodeAttachTargets, lint.Doc{
		Summary: "`invocation=attach` or `both` without `attach_targets`, or with a target listed twice or outside task, run, output, transcript, artifact.",
		Why:     "skills_attach checks the requested target type against this list before anything runs; an empty or misspelt list makes the skill impossible to attach.",
		Bad:     "# Skill: audit-run\n# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=run,runs\n",
		Good:    "# Skill: audit-run\n# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=run,output\n",
	})
}

func ruleClassificationDirectTargets() *lint.Rule {
	return classificationRule("classification-direct-targets", classification.CodeDirectTargets, lint.Doc{
		Summary: "`invocation=direct` with `attach_targets`.",
		Why:     "A direct-only skill cannot be attached, so the targets promise something the gateway refuses. Remove them, or use invocation=both.",
		Bad:     "# Skill: weekly-report\n# Classification: role=procedure invocation=direct effect_mode=read_only attach_targets=run\n",
		Good:    "# Skill: weekly-report\n# Classification: role=procedure invocation=both effect_mode=read_only attach_targets=run\n",
	})
}

// ruleClassificationFootprint cross-checks effect_mode=read_only against
// the approval footprint: every mutating op and every op that reaches out
// (notify) contradicts it.
func ruleClassificationFootprint() *lint.Rule {
	return &lint.Rule{
		ID: "classification-footprint", Severity: ast.Error, Needs: lint.NeedsSource,
		Doc: lint.Doc{
			Summary: "`effect_mode=read_only` in a skill with a mutating or outward op: a mutating `$` dispatch (`$ data_write`, a tool with a mutating verb or declared mutating), `file_write`, unsafe or destructive `shell`, or `notify`.",
			Why:     "Agents pick read-only skills for read-only requests and may run them without review; the classification must not hide a write. The footprint is the one the approval gate shows. Change effect_mode (enrich or control_signal), or remove the op.",
			Bad:     "# Skill: sync\n# Classification: role=procedure invocation=direct effect_mode=read_only\n\nmain:\n    file_write(path=\"out.txt\", content=\"x\")\n\ndefault: main\n",
			Good:    "# Skill: sync\n# Classification: role=procedure invocation=direct effect_mode=enrich\n\nmain:\n    file_write(path=\"out.txt\", content=\"x\")\n\ndefault: main\n",
		},
		Run: func(p *lint.Pass) {
			c, _ := classification.Of(p.File)
			if c == nil || c.EffectMode != classification.EffectReadOnly {
				return
			}
			h := p.File.Header(ast.HeaderClassification)
			mut := func(conn, tool string) (string, bool) {
				if conn == "" {
					conn = "primary" // a bare "$ tool" routes to the primary connector
				}
				c := p.Ctx.Connectors[conn]
				if c == nil {
					return "", false
				}
				return lang.ToolMutation(tool, c.ToolFacts(tool)), true
			}
			for _, e := range effects.Of(p.File, p.Info, mut).Effects {
				why := e.Why
				if !e.Mutating && e.Kind == effects.Notify {
					why = "notify sends a message to " + e.Subject
				}
				if !e.Mutating && e.Kind != effects.Notify {
					continue
				}
				d := p.Reportf(e.Range, "the skill is classified effect_mode=read_only but %s changes or sends something (%s)", e.Op, why)
				d.Related = append(d.Related, ast.Related{Range: h.ValueRng, Message: "classified read_only here"})
			}
		},
	}
}
