package eval

import (
	"sort"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// checkRunnable refuses a Disabled skill and a broken target graph, and
// notes a Draft.
func (x *run) checkRunnable() error {
	switch x.info.Status {
	case contract.StatusDisabled:
		return fatalf(KindDisabled, "skill %q is Disabled and cannot run", x.res.Skill)
	case contract.StatusDraft, "":
		if x.depth == 0 {
			x.notice("skill is Draft: running locally for its author; approve it before it fires in production")
		}
	}
	if err := malformed(x.f); err != nil {
		return err
	}
	g := &x.info.Graph
	switch {
	case len(x.info.Dups) > 0:
		return &RunError{Kind: KindInvalidSkill, Msg: "duplicate target " + x.info.Dups[0].Name.Name, Fatal: true, Range: x.info.Dups[0].Name.Range}
	case len(g.Missing) > 0:
		m := g.Missing[0]
		return &RunError{Kind: KindInvalidSkill, Msg: "target " + m.From.Name.Name + " needs undeclared target " + m.Name.Name, Fatal: true, Range: m.Name.Range}
	case len(g.Cycles) > 0:
		return &RunError{Kind: KindInvalidSkill, Msg: "circular dependency: " + cycleText(g.Cycles[0]), Fatal: true, Range: g.Cycles[0][0].Name.Range}
	case g.GoalDecl != nil && g.Goal == nil:
		return &RunError{Kind: KindInvalidSkill, Msg: "default: names no target", Fatal: true, Range: g.GoalDecl.Range}
	case g.Goal == nil && len(x.f.Targets) > 0:
		return fatalf(KindInvalidSkill, "the skill has targets but no default: goal")
	}
	return nil
}

func cycleText(c []*ast.Target) string {
	names := make([]string, 0, len(c)+1)
	for _, t := range c {
		names = append(names, t.Name.Name)
	}
	return strings.Join(append(names, names[0]), " -> ")
}

// bindInputs binds the skill's inputs: caller value, then the # Requires:
// cascade, then the # Vars: default. Every missing required name is
// reported at once, before any target runs.
func (x *run) bindInputs(inputs map[string]any) error {
	declared := x.declaredInputs()
	x.ignoreUndeclared(inputs, declared)
	var missing []string
	for _, h := range x.f.HeadersOf(ast.HeaderRequires) {
		for _, req := range h.Reqs {
			if req.Bind == nil || req.Bind.Name == nil || req.Kind == ast.ReqSecret {
				continue
			}
			if !x.bindRequirement(req, inputs) {
				missing = append(missing, req.Bind.Name.Name)
			}
		}
	}
	for _, h := range x.f.HeadersOf(ast.HeaderVars) {
		for _, d := range h.Vars {
			ok, err := x.bindVar(d, inputs)
			if err != nil {
				return err
			}
			if !ok {
				missing = append(missing, d.Name.Name)
			}
		}
	}
	if len(missing) > 0 {
		return fatalf(KindMissingInput, "missing required input %s (pass it as --var NAME=value)", strings.Join(missing, ", "))
	}
	return nil
}

func (x *run) declaredInputs() map[string]bool {
	d := map[string]bool{}
	for name := range x.info.Declared {
		d[name] = true
	}
	for _, b := range x.info.Binds {
		if b.Kind == check.BindRequires {
			d[b.Name] = true
		}
	}
	return d
}

func (x *run) ignoreUndeclared(inputs map[string]any, declared map[string]bool) {
	var extra []string
	for k := range inputs {
		if !declared[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		x.notice("input " + k + " is not declared in # Vars: and was ignored")
	}
}

func (x *run) bindVar(d *ast.VarDecl, inputs map[string]any) (bool, error) {
	name := d.Name.Name
	if v, ok := inputs[name]; ok && v != nil {
		x.root.set(name, value.Normalize(v))
		return true, nil
	}
	if _, bound := x.root.get(name); bound {
		return true, nil // bound by # Requires:
	}
	if d.Default == nil {
		return false, nil
	}
	v, err := x.evalPlain(d.Default, x.root)
	if err != nil {
		re := classify(err)
		re.Fatal, re.Msg, re.Range = true, "# Vars: default of "+name+": "+re.Msg, d.Range
		return false, re
	}
	x.root.set(name, v)
	return true, nil
}

// bindRequirement resolves one user-var / system-var requirement.
func (x *run) bindRequirement(req *ast.Requirement, inputs map[string]any) bool {
	name := req.Bind.Name.Name
	if v, ok := inputs[name]; ok && v != nil {
		x.root.set(name, value.Normalize(v))
		return true
	}
	if v, ok := x.lookupRequirement(req); ok {
		x.root.set(name, v)
		return true
	}
	if req.Fallback != nil {
		if v, err := x.evalPlain(req.Fallback.Value, x.root); err == nil {
			x.root.set(name, v)
			return true
		}
	}
	return false
}

// lookupRequirement reads a requirement from the data store: the
// "user-var:KEY" / "system-var:KEY" record, then (user-var only) the KEY
// field of the "user-profile" JSON record.
func (x *run) lookupRequirement(req *ast.Requirement) (any, bool) {
	store := x.r.registry().Data
	if store == nil || req.Key == nil || x.mech {
		return nil, false
	}
	ns := "system-var:"
	if req.Kind == ast.ReqUserVar {
		ns = "user-var:"
	}
	if v, ok := x.latestRecord(store, ns+req.Key.Name); ok {
		return strings.TrimSpace(v), true
	}
	if req.Kind != ast.ReqUserVar {
		return nil, false
	}
	profile, ok := x.latestRecord(store, "user-profile")
	if !ok {
		return nil, false
	}
	obj, err := value.FromJSON(profile)
	if err != nil {
		return nil, false
	}
	return value.Path(obj, []string{req.Key.Name})
}

func (x *run) latestRecord(store contract.DataStore, tag string) (string, bool) {
	recs, err := store.Query(x.ctx, contract.Query{DomainTags: []string{tag}, Limit: 1})
	if err != nil {
		x.notice("# Requires: lookup of " + tag + " failed: " + err.Error())
		return "", false
	}
	if len(recs) == 0 {
		return "", false
	}
	return recs[0].Detail, true
}

// applyTimeHeaders reads # Timeout: (the per-op default) and # Deadline:
// (the whole-run bound, capped by Runner.MaxDeadline).
func (x *run) applyTimeHeaders() error {
	if h := x.f.Header(ast.HeaderTimeout); h != nil && h.Duration != nil {
		d, err := x.headerSeconds(h)
		if err != nil {
			return err
		}
		x.opTimeout = d
	}
	var limit time.Duration
	if h := x.f.Header(ast.HeaderDeadline); h != nil && h.Duration != nil {
		d, err := x.headerSeconds(h)
		if err != nil {
			return err
		}
		limit = d
	}
	if m := x.r.MaxDeadline; m > 0 && (limit == 0 || m < limit) {
		limit = m
	}
	if limit > 0 {
		x.setDeadline(x.start.Add(limit))
	}
	return nil
}

func (x *run) setDeadline(at time.Time) {
	ctx, cancel := contextWithDeadline(x.ctx, at, x.r.clock())
	prev := x.cancel
	x.ctx, x.cancel = ctx, func() { cancel(); prev() }
	x.done = ctx.Done()
	x.deadline = at
}

func (x *run) headerSeconds(h *ast.Header) (time.Duration, error) {
	v, err := x.evalPlain(h.Duration, x.root)
	if err == nil {
		var n float64
		if n, err = value.Number(v); err == nil && n > 0 {
			return seconds(n), nil
		}
	}
	return 0, &RunError{Kind: KindArgument, Msg: "# " + h.Kind.String() + ": want a positive number of seconds", Fatal: true, Range: h.Range}
}
