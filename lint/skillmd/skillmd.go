// Package skillmd is the SKILL.md rule set of the linter (Agent Skills
// packages): the rules of internal/agentskills documented as lint rules,
// so that explain, rules, docs/rules.md, suppressions and severity
// overrides treat them like skillscript rules, and the check of one
// SKILL.md file with the lint options applied.
package skillmd

import (
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
	"github.com/skillscript/skillc/lint"
)

// Rules returns the SKILL.md rule set. A rule's severity here is the
// compat-mode default; its doc names the strict one.
func Rules() []*lint.Rule {
	docs := agentskills.Rules()
	out := make([]*lint.Rule, len(docs))
	rules := make([]lint.Rule, len(docs)) // one allocation for the set
	for i, d := range docs {
		r := &rules[i]
		*r = lint.Rule{ID: d.ID, Severity: d.Compat, Needs: lint.NeedsSource, Origin: lint.BySkillMD, Doc: lint.Doc{Summary: d.Summary, Why: d.Why, Bad: d.Bad, Good: d.Good}}
		if d.Registry {
			r.Origin = lint.ByRegistry
		}
		if d.Strict != d.Compat {
			r.Doc.Why += " With `--strict` it is " + sevArticle(d.Strict) + "."
		}
		out[i] = r
	}
	return out
}

func sevArticle(s ast.Severity) string {
	if s == ast.Error {
		return "an error"
	}
	if s == ast.Info {
		return "an info"
	}
	return "a " + s.String()
}

// Check validates the SKILL.md at path (vopts picks the mode and
// profile) and applies opts like lint.Check does for skillscript:
// severity overrides, disabled rules and `skillc:ignore` comments (a YAML
// comment in the frontmatter, an HTML comment `<!-- skillc:ignore id -->`
// in the body). The error is set only when the file cannot be read.
func Check(path string, vopts agentskills.Options, opts lint.Options) (*agentskills.Skill, ast.Diagnostics, error) {
	s, ds, err := agentskills.LoadFile(path, vopts)
	if err != nil {
		return nil, nil, err
	}
	return s, Finish(s, ds, opts), nil
}

// Finish applies opts (overrides, disabled rules, suppression comments)
// to the diagnostics of a loaded SKILL.md and sorts them. When opts names
// no rules, suppressions are checked against the skillscript and SKILL.md
// sets.
func Finish(s *agentskills.Skill, ds ast.Diagnostics, opts lint.Options) ast.Diagnostics {
	if opts.Rules == nil {
		opts.Rules = withSkillscript()
	}
	f := &ast.File{Name: s.Path, Src: s.Src, Lines: s.Lines, Comments: s.Comments}
	return lint.Filter(f, ds, opts)
}

// withSkillscript is the registry of the skillscript and SKILL.md sets,
// built once per process.
var withSkillscript = sync.OnceValue(func() *lint.Registry { return lint.NewRegistry(lint.Skillscript(), Rules()) })
