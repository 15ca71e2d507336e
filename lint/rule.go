package lint

import (
	"fmt"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// Needs says what a rule needs beyond the source text.
type Needs int

// The contexts a rule may need.
const (
	NeedsSource      Needs = iota // the source alone
	NeedsConfig                   // connectors.json and operator settings
	NeedsSchemas                  // tool input schemas of wired connectors
	NeedsStore                    // the skill store
	NeedsStoreAbsent              // fires because no skill store is configured
	NeedsNothing                  // reserved id that never fires
)

var needsNames = [...]string{"source", "config", "schemas", "store", "store (absent)", "—"}

// String returns the context name used in docs ("config").
func (n Needs) String() string {
	if n >= 0 && int(n) < len(needsNames) {
		return needsNames[n]
	}
	return "?"
}

// Origin says which phase reports a rule.
type Origin int

// The reporting phases.
const (
	ByLinter       Origin = iota // a lint rule's Run reports it
	ByParser                     // the parser reports it while parsing
	ByParserLinter               // both: the parser for syntax, the linter for the rest
	ByConfig                     // reported against connectors.json by CheckConfig
	ByEngine                     // the engine itself (unused-suppression)
	BySkillMD                    // the SKILL.md validator (internal/agentskills)
	ByRegistry                   // the skill registry (internal/host/registry)
	Never                        // reserved, never reported
)

var originNames = [...]string{"linter", "parser", "parser and linter", "connectors.json check", "lint engine", "SKILL.md validator", "skill registry", "never (reserved)"}

// String describes the origin ("parser").
func (o Origin) String() string {
	if o >= 0 && int(o) < len(originNames) {
		return originNames[o]
	}
	return "?"
}

// Doc is a rule's documentation, written once and rendered by
// FormatDoc, MarkdownDocs, `skillc explain` and the language server.
type Doc struct {
	Summary string // one line: what the rule catches
	Why     string // why it matters and what to do instead
	Bad     string // a snippet that triggers the rule
	Good    string // the corrected snippet
}

// Rule is one lint rule.
type Rule struct {
	ID       string
	Severity ast.Severity
	Needs    Needs
	Origin   Origin
	Doc      Doc
	// Run reports the rule's diagnostics; nil for rules reported by the
	// parser, the engine or the configuration check.
	Run func(*Pass)
	// local says the rule's findings about a node depend on nothing but
	// that node's top-level node, what lies outside the targets and the
	// other targets' interface (see incr): after an edit inside one
	// target, the language server re-runs it over that target only.
	local bool
}

// Pass is what a rule's Run sees: the file, the checker's facts, the
// deployment context, and the reporting functions. One Pass serves every
// rule of a run in turn, so a rule must not keep it (or a closure over it)
// past its Run.
type Pass struct {
	File *ast.File
	Info *check.Info
	Ctx  *Context // never nil; the zero Context means "no context"

	rule  *Rule
	st    *state
	diags *ast.Diagnostics
	onlyE *incr // set while a local rule runs over the edited target only
}

// skip reports whether a local rule may pass over a node at r: its
// findings outside the edited target are taken over from the previous
// run (see incr). Rules that ask it report nothing else about such nodes.
func (p *Pass) skip(r ast.Range) bool { return p.onlyE != nil && p.onlyE.skip(r) }

// Spanner is anything with a source range: every ast.Node and ast.Range.
type Spanner interface{ Span() ast.Range }

// Report adds d; an empty Rule or zero Severity is filled from the rule
// being run.
func (p *Pass) Report(d *ast.Diagnostic) {
	if d.Rule == "" {
		d.Rule = p.rule.ID
	}
	if d.Severity == 0 {
		d.Severity = p.rule.Severity
	}
	*p.diags = append(*p.diags, d)
}

// Reportf reports a diagnostic of the running rule at n and returns it so
// the caller can attach fixes and related locations.
func (p *Pass) Reportf(n Spanner, format string, args ...any) *ast.Diagnostic {
	return p.ReportRulef(p.rule.ID, n, format, args...)
}

// ReportRulef reports a diagnostic of another rule id (for analyses that
// own several ids) at n and returns it.
func (p *Pass) ReportRulef(rule string, n Spanner, format string, args ...any) *ast.Diagnostic {
	d := &ast.Diagnostic{Rule: rule, Range: n.Span(), Message: fmt.Sprintf(format, args...)}
	if rule == p.rule.ID {
		d.Severity = p.rule.Severity
	}
	p.Report(d)
	return d
}

// Text returns the source text of r.
func (p *Pass) Text(r ast.Range) string {
	from, to := r.From.Offset(), r.To.Offset()
	if from < 0 || to > len(p.File.Src) || from > to {
		return ""
	}
	return string(p.File.Src[from:to])
}

// Line returns the 1-based line of pos.
func (p *Pass) Line(pos ast.Pos) int { return p.File.Lines.Position(pos).Line }

// Registry is a composed set of rules: what one lint run may report. The
// engine runs the rules of Options.Rules; explain, rules, the docs and the
// suppression check read it. Rules are stateless values shared read-only
// by every run that uses the registry.
type Registry struct {
	rules    []*Rule
	runnable []*Rule // the rules with a Run
	byID     map[string]*Rule
	ids      []string
}

// NewRegistry composes rule sets in the order given. A rule id given
// twice is a programming error and panics, naming the id.
func NewRegistry(sets ...[]*Rule) *Registry {
	n := 0
	for _, set := range sets {
		n += len(set)
	}
	r := &Registry{byID: make(map[string]*Rule, n), rules: make([]*Rule, 0, n), ids: make([]string, 0, n), runnable: make([]*Rule, 0, n)}
	for _, set := range sets {
		for _, rule := range set {
			if _, dup := r.byID[rule.ID]; dup {
				panic("lint: rule " + rule.ID + " is in two rule sets")
			}
			r.byID[rule.ID] = rule
			r.rules = append(r.rules, rule)
			r.ids = append(r.ids, rule.ID)
			if rule.Run != nil {
				r.runnable = append(r.runnable, rule)
			}
		}
	}
	return r
}

// Rules returns the registry's rules in order. They are shared: read
// them, do not modify them.
func (r *Registry) Rules() []*Rule { return r.rules }

// Lookup returns the rule with the given id, or nil.
func (r *Registry) Lookup(id string) *Rule { return r.byID[id] }

// IDs returns every rule id in order.
func (r *Registry) IDs() []string { return r.ids }

// builtin is the registry of the skillscript set alone, built once per
// process: the engine's default when Options.Rules is nil (building the
// whole registry with every rule's documentation for each linted file was
// a third of the bytes allocated by checking a folder of small skills).
var builtin = sync.OnceValue(func() *Registry { return NewRegistry(Skillscript()) })

// registry returns the rules a run with o uses.
func (o *Options) registry() *Registry {
	if o.Rules != nil {
		return o.Rules
	}
	return builtin()
}
