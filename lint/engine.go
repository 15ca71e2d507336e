package lint

import (
	"sort"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/types"
	"github.com/skillscript/skillc/syntax"
)

// Options controls a lint run. The zero value runs every rule at its
// default severity and honours suppression comments.
type Options struct {
	// Severity overrides rule severities; a zero severity turns a rule off.
	Severity map[string]ast.Severity
	// Disable turns rules off.
	Disable []string
	// ReportUnusedSuppressions reports `# skillc:ignore` comments that
	// suppressed nothing (rule unused-suppression).
	ReportUnusedSuppressions bool
	// Stop, when set, is asked before each rule: once it answers true the
	// run ends early and its diagnostics are incomplete. The language
	// server sets it to drop the analysis of a text an edit replaced; a
	// caller that sets it must ask it again after the run and discard the
	// result when it answers true.
	Stop func() bool
	// Rules are the rules the run may report, composed by the caller
	// (lint/rulesets.All for every set); nil runs the skillscript set
	// alone.
	Rules *Registry
	// Reuse, when set, lets the run take over findings of the previous run
	// on the same document after an edit inside one target (see Reuse);
	// the language server sets it.
	Reuse *Reuse
}

// severity returns the effective severity of rule (default def); ok is
// false when the rule is turned off.
func (o *Options) severity(rule string, def ast.Severity) (ast.Severity, bool) {
	if contains(o.Disable, rule) {
		return 0, false
	}
	if s, ok := o.Severity[rule]; ok {
		return s, s != 0
	}
	return def, true
}

// Effective returns the severity rule has under o given its default def;
// ok is false when the options turn the rule off. Front ends that report
// rule ids for other inputs (connectors.json) apply the options with it.
func (o *Options) Effective(rule string, def ast.Severity) (sev ast.Severity, ok bool) {
	return o.severity(rule, def)
}

// Check parses, checks and lints src: this is what `skillc check`,
// `skillc run` and the language server call. The parser's diagnostics are
// merged with the linter's and go through the same overrides and
// suppressions. ctx may be nil (no context).
func Check(name string, src []byte, ctx *Context, opts Options) (*ast.File, *check.Info, ast.Diagnostics) {
	f, parsed := syntax.Parse(name, src)
	info := check.Check(f)
	ds := lint(f, info, ctx, opts, parsed)
	return f, info, ds
}

// CheckParsed is Check for a file already parsed: parsed are the parser's
// diagnostics of f (the language server parses first to answer at once).
func CheckParsed(f *ast.File, parsed ast.Diagnostics, ctx *Context, opts Options) (*check.Info, ast.Diagnostics) {
	info := check.Check(f)
	return info, lint(f, info, ctx, opts, parsed)
}

// CheckWith is CheckParsed for a file already checked into info (the
// facts of a compiled unit): it runs the rules only. The rules read f and
// info and never change them, so a shared unit's stay as they were;
// parsed must be the caller's own copies (severities are set on them).
func CheckWith(f *ast.File, info *check.Info, parsed ast.Diagnostics, ctx *Context, opts Options) ast.Diagnostics {
	return lint(f, info, ctx, opts, parsed)
}

// lint runs every enabled rule over a parsed and checked file and returns
// parsed (the parser's diagnostics) plus the rules' findings, with
// suppressions and options applied, sorted by position. ctx may be nil.
func lint(f *ast.File, info *check.Info, ctx *Context, opts Options, parsed ast.Diagnostics) ast.Diagnostics {
	if ctx == nil {
		ctx = &Context{}
	}
	if info == nil {
		info = check.Check(f)
	}
	ds := append(ast.Diagnostics(nil), parsed...)
	st := newState(f, info)
	var in *incr
	if opts.Reuse != nil {
		in = newIncr(f, info, opts.Reuse)
		in.seed(st)
	}
	if f.NotText {
		// only the parser's encoding error: rules about an empty file
		// (no-targets, ...) would be noise on a binary file
		return finish(f, st, ds, opts)
	}
	// one Pass serves every rule in turn, its rule set for each (a rule
	// never keeps its Pass past Run): a Pass per rule was half of the
	// allocations of linting a small skill (issue 25, AK1)
	p := &Pass{File: f, Info: info, Ctx: ctx, st: st, diags: &ds}
	for _, r := range opts.registry().runnable {
		if _, on := opts.severity(r.ID, r.Severity); !on {
			continue
		}
		if opts.Stop != nil && opts.Stop() {
			return ds // incomplete: the caller discards it
		}
		p.rule, p.onlyE = r, nil
		if r.local && in != nil {
			in.run(r, p, &ds)
			continue
		}
		r.Run(p)
	}
	if in != nil {
		in.finish(st)
	}
	ds = finish(f, st, ds, opts)
	ds.Sort()
	return ds
}

// finish applies severity overrides, fills enclosing targets and applies
// suppression comments.
func finish(f *ast.File, st *state, ds ast.Diagnostics, opts Options) ast.Diagnostics {
	out := ds[:0]
	for _, d := range ds {
		sev, on := opts.severity(d.Rule, d.Severity)
		if !on {
			continue
		}
		d.Severity = sev
		if d.Target == "" {
			d.Target = st.targetAt(d.Range.From)
		}
		out = append(out, d)
	}
	sup := parseSuppressions(f)
	out = sup.apply(f, out)
	if opts.ReportUnusedSuppressions {
		if sev, on := opts.severity(ruleUnusedSuppression, ast.Info); on {
			out = append(out, sup.unused(sev, opts.registry())...)
		}
	}
	return out
}

// state holds per-file facts shared by several rules, computed lazily.
type state struct {
	f       *ast.File
	info    *check.Info
	targets []*ast.Target // sorted by position

	secrets     []secretUse
	secretsDone bool
	bindersDone bool
	binderOf    map[string][]*check.Binding // non-append bindings by name, skill-wide
	emitCount   int
	refOf       map[*ast.Subst]*check.Ref
	emitCounted bool
	inlined     map[string]bool // names bound by inlined data skills (see inlineBound)
	index       *index          // ops and references by what the rules ask for (see idx)

	scanDone  bool
	scanRes   scanned
	credKeys  map[string]bool           // credentialKey's answer by kwarg name
	typer     *Typer                    // static types from tool schemas (rules_types.go)
	schemas   map[*Tool]decodedSchema   // decoded input schemas (Pass.schemaOf)
	propTypes map[propKey]*types.Type   // their properties' types (propType)
	visible   map[*check.Scope]*nameSet // did-you-mean candidates by scope (namesVisible)
	loopBinds map[string]*check.Binding // the first loop-scoped binding by name (loopBinding)
	loopAsked int                       // loopBinding questions answered by a scan
	qualDone  bool
	qual      []*ast.DispatchStmt // qualified's answer, shared by the connector rules
	sRefsDone bool
	sRefs     []skillRef // skillRefs' answer, shared by the store rules
	// scanIn is set while a local rule runs over the edited target only:
	// scan then answers about that target (scanE), else about the file.
	scanIn    *incr
	scanEDone bool
	scanE     scanned
	// sRefsE is skillRefs' answer for a local rule running over the
	// edited target only
	sRefsEDone bool
	sRefsE     []skillRef
	// laneLines and laneE are set in a lane step (Lane): the nodes of the
	// other targets are the base's, whose lines are laneLines
	laneLines *ast.LineTable
	laneE     *ast.Target
}

// bindLine returns the line of pos, a position of binding b's node.
func (s *state) bindLine(b *check.Binding, pos ast.Pos) int {
	if s.laneLines != nil && b.Target != s.laneE {
		return s.laneLines.Position(pos).Line
	}
	return s.f.Lines.Position(pos).Line
}

func newState(f *ast.File, info *check.Info) *state {
	// the parser lists targets in source order: the sorted copy is made
	// only for a tree that is not (the list is only read)
	ts := f.Targets[:len(f.Targets):len(f.Targets)]
	if !targetsSorted(ts) {
		ts = append([]*ast.Target(nil), f.Targets...)
		sort.Slice(ts, func(i, j int) bool { return ts[i].Pos() < ts[j].Pos() })
	}
	return &state{f: f, info: info, targets: ts}
}

// targetsSorted reports whether ts are in increasing position order.
func targetsSorted(ts []*ast.Target) bool {
	for i := 1; i < len(ts); i++ {
		if ts[i].Pos() < ts[i-1].Pos() {
			return false
		}
	}
	return true
}

// targetAt returns the name of the target whose range holds pos.
func (s *state) targetAt(pos ast.Pos) string {
	i := sort.Search(len(s.targets), func(i int) bool { return s.targets[i].Pos() > pos }) - 1
	if i < 0 {
		return ""
	}
	t := s.targets[i]
	if pos >= t.End() || t.Name == nil {
		return ""
	}
	return t.Name.Name
}

// bindings returns every binding of name anywhere in the skill (in any
// scope), excluding $append mutations.
func (s *state) bindings(name string) []*check.Binding {
	if !s.bindersDone {
		s.binderOf = map[string][]*check.Binding{}
		for _, b := range s.info.Binds {
			if b.Kind != check.BindAppend {
				s.binderOf[b.Name] = append(s.binderOf[b.Name], b)
			}
		}
		s.bindersDone = true
	}
	return s.binderOf[name]
}

// loopBinding returns the first of bindings(name) made inside a foreach
// (nil when none is): what an unresolved reference's hint names, without
// the map of every binding by name that bindings builds.
func (s *state) loopBinding(name string) *check.Binding {
	if s.bindersDone {
		for _, b := range s.binderOf[name] {
			if b.Scope != nil && b.Scope.Kind == check.ScopeLoop {
				return b
			}
		}
		return nil
	}
	if s.loopBinds == nil && s.loopAsked < loopScanLimit {
		// The first few questions scan the bindings: a lane step while
		// typing asks about the one reference the edit left unresolved,
		// and a map of a 5,000-line skill's bindings cost more than that.
		s.loopAsked++
		for _, b := range s.info.Binds {
			if b.Name == name && isLoopBind(b) {
				return b
			}
		}
		return nil
	}
	if s.loopBinds == nil {
		s.loopBinds = map[string]*check.Binding{}
		for _, b := range s.info.Binds {
			if isLoopBind(b) {
				if _, ok := s.loopBinds[b.Name]; !ok {
					s.loopBinds[b.Name] = b
				}
			}
		}
	}
	return s.loopBinds[name]
}

// loopScanLimit is how many loopBinding questions scan the bindings
// before it builds its map.
const loopScanLimit = 4

// isLoopBind reports whether b binds a name inside a foreach (not an
// $append to an outer list).
func isLoopBind(b *check.Binding) bool {
	return b.Kind != check.BindAppend && b.Scope != nil && b.Scope.Kind == check.ScopeLoop
}

// emits returns the number of emit(...) calls at any depth.
func (s *state) emits() int {
	if !s.emitCounted {
		for _, op := range s.info.Ops {
			if c, ok := op.Stmt.(*ast.CallStmt); ok && c.Name != nil && c.Name.Name == "emit" {
				s.emitCount++
			}
		}
		s.emitCounted = true
	}
	return s.emitCount
}

// bound reports whether anything in the skill binds name ($set, $append,
// -> NAME, foreach, # Requires:, # Vars:...). It scans the bindings: it
// is asked about the few # Returns: names only.
func (s *state) bound(name string) bool {
	for _, b := range s.info.Binds {
		if b.Name == name {
			return true
		}
	}
	return false
}

// boundNames returns every bound name once, sorted.
func (s *state) boundNames() []string {
	seen := make(map[string]bool, len(s.info.Binds))
	out := []string{}
	for _, b := range s.info.Binds {
		if !seen[b.Name] {
			seen[b.Name] = true
			out = append(out, b.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Filter applies opts (overrides, disabled rules, suppression comments) to
// diagnostics of f found outside a lint run (a SKILL.md, the parser's
// findings alone) and sorts them.
func Filter(f *ast.File, ds ast.Diagnostics, opts Options) ast.Diagnostics {
	ds = finish(f, newState(f, &check.Info{}), ds, opts)
	ds.Sort()
	return ds
}
