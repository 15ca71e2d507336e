package lint

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/agentskills"
)

// skillMDRules documents the SKILL.md rules (Agent Skills packages) in
// the one registry, so that explain, rules, docs/rules.md, suppressions
// and severity overrides treat them like skillscript rules. Their
// severity here is the compat-mode default; the doc names the strict one.
func skillMDRules() []*Rule {
	var out []*Rule
	for _, d := range agentskills.Rules() {
		r := &Rule{ID: d.ID, Severity: d.Compat, Needs: NeedsSource, Origin: BySkillMD, Doc: Doc{Summary: d.Summary, Why: d.Why, Bad: d.Bad, Good: d.Good}}
		if d.Registry {
			r.Origin = ByRegistry
		}
		if d.Strict != d.Compat {
			r.Doc.Why += " With `--strict` it is " + sevArticle(d.Strict) + "."
		}
		out = append(out, r)
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

// fenceLang is the code-fence language of a rule's examples in the docs.
func fenceLang(r *Rule) string {
	if r.Origin == BySkillMD || r.Origin == ByRegistry {
		return "markdown"
	}
	return "skillscript"
}

// CheckSkillMD validates the SKILL.md at path (vopts picks the mode and
// profile) and applies opts like Check does for skillscript: severity
// overrides, disabled rules and `skillc:ignore` comments (a YAML comment
// in the frontmatter, an HTML comment `<!-- skillc:ignore id -->` in the
// body). The error is set only when the file cannot be read.
func CheckSkillMD(path string, vopts agentskills.Options, opts Options) (*agentskills.Skill, ast.Diagnostics, error) {
	s, ds, err := agentskills.LoadFile(path, vopts)
	if err != nil {
		return nil, nil, err
	}
	return s, FinishSkillMD(s, ds, opts), nil
}

// FinishSkillMD applies opts (overrides, disabled rules, suppression
// comments) to the diagnostics of a loaded SKILL.md and sorts them.
func FinishSkillMD(s *agentskills.Skill, ds ast.Diagnostics, opts Options) ast.Diagnostics {
	f := &ast.File{Name: s.Path, Src: s.Src, Lines: s.Lines, Comments: s.Comments}
	return Filter(f, ds, opts)
}

// Filter applies opts (overrides, disabled rules, suppression comments) to
// diagnostics of f found outside a lint run (a SKILL.md, the parser's
// findings alone) and sorts them.
func Filter(f *ast.File, ds ast.Diagnostics, opts Options) ast.Diagnostics {
	ds = finish(f, newState(f, &check.Info{}), ds, opts)
	ds.Sort()
	return ds
}
