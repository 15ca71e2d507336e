package eval

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/value"
)

// Debugger is told about every step of a run before it happens: the start
// of a skill (the root and each child of execute_skill), of each target,
// of each statement, and the end of each skill. It is the hook of
// `skillc dap`; a nil Runner.Debug costs one comparison per step.
//
// Stop is called from the goroutine running the skill and may block: the
// run waits until it returns. An error it returns stops the run, fatally
// (no fallback or else: contains it). The Point is valid only during the
// call.
type Debugger interface {
	Stop(p *Point) error
}

// Point kinds.
const (
	PointSkill  = "skill"  // a skill (root or child) is about to bind its inputs
	PointTarget = "target" // a target is about to run
	PointStmt   = "op"     // a statement is about to run
	PointDone   = "done"   // a skill finished; Status says how
)

// SecretMarker is what a debugger shows in place of a value that holds or
// derives from a secret.
const SecretMarker = "{{secret}}"

// Point is one step of a run seen by a Debugger.
type Point struct {
	Kind   string
	Skill  string      // the skill's name
	File   *ast.File   // the skill being run
	Info   *check.Info // its check
	Target *ast.Target // the target being run, nil before the first
	Stmt   ast.Stmt    // the statement about to run (PointStmt only)
	Line   int         // 1-based line of the target or statement, 0 if unknown
	Depth  int         // 0 for the root skill, 1 for its children, ...
	Status string      // PointDone: the skill's status (ok, failed, ...)

	x  *run
	sc *scope
}

// Var kinds, as a debugger groups them.
const (
	VarInput  = "var"    // declared in # Vars: (or bound from inputs)
	VarBound  = "bound"  // bound by $set or -> VAR
	VarLoop   = "loop"   // a foreach variable or a binding of its body
	VarOutput = "output" // ${target.output} of a target that ran
)

// Var is one variable visible at a Point. Value is the value with every
// secret-holding or secret-derived value replaced by SecretMarker.
type Var struct {
	Name  string
	Kind  string
	Value any
}

// debugStop calls the debugger, if any, at a step of kind.
func (x *run) debugStop(kind string, t *ast.Target, s ast.Stmt, sc *scope) error {
	d := x.r.Debug
	if d == nil {
		return nil
	}
	p := &Point{Kind: kind, Skill: x.skillName(), File: x.f, Info: x.info, Target: t, Stmt: s, Depth: x.depth, x: x, sc: sc}
	switch {
	case s != nil:
		p.Line = x.line(s.Span())
	case t != nil:
		p.Line = x.line(t.Range)
	}
	if kind == PointDone {
		p.Status = x.res.Status
	}
	if err := d.Stop(p); err != nil {
		return &RunError{Kind: KindCancelled, Msg: err.Error(), Fatal: true, Err: err}
	}
	return nil
}

// Vars returns the variables visible at p, innermost scope first: loop
// bindings, then the skill's inputs and bound results, then the outputs
// of the targets that ran. Secret values are masked (see Var).
func (p *Point) Vars() []Var {
	var out []Var
	seen := map[string]bool{}
	for sc := p.sc; sc != nil; sc = sc.parent {
		for i := range sc.ents {
			e := &sc.ents[i]
			if seen[e.name] {
				continue
			}
			seen[e.name] = true
			kind := VarBound
			switch {
			case sc.kind == scopeLoop:
				kind = VarLoop
			case p.Info != nil && p.Info.Declared[e.name] != nil:
				kind = VarInput
			}
			out = append(out, Var{Name: e.name, Kind: kind, Value: p.mask(e.value(), e.m.tainted)})
		}
	}
	if p.x != nil {
		for _, t := range p.x.info.Graph.Order {
			name := t.Name.Name
			if v, ok := p.x.targetOut[name]; ok {
				out = append(out, Var{Name: name + ".output", Kind: VarOutput, Value: p.mask(v, p.x.targetTaint[name])})
			}
		}
	}
	return out
}

// mask returns v, or SecretMarker when v is tainted or holds a secret
// (a sentinel or a provisioned value in any spelling).
func (p *Point) mask(v any, tainted bool) any {
	if tainted {
		return SecretMarker
	}
	b := p.x.secrets
	if b.HasValue(v) {
		return SecretMarker
	}
	if s := value.String(v); b.Redact(s) != s {
		return SecretMarker
	}
	return v
}

// Cond evaluates c in the scope of p, with no effect on the run.
func (p *Point) Cond(c ast.Cond) (bool, error) {
	if p.x == nil || c == nil {
		return false, nil
	}
	flow, touched := p.x.flow, p.x.touched
	defer func() { p.x.flow, p.x.touched = flow, touched }()
	ok, err := p.x.cond(c, p.sc)
	if err != nil {
		return false, p.maskErr(err)
	}
	return ok, nil
}

// Render renders the text t (with its ${…} substitutions) in the scope
// of p, with no effect on the run; a result that holds or derives from a
// secret is SecretMarker.
func (p *Point) Render(t *ast.Text) (string, error) {
	if p.x == nil || t == nil {
		return "", nil
	}
	flow, touched := p.x.flow, p.x.touched
	defer func() { p.x.flow, p.x.touched = flow, touched }()
	p.x.flow = false
	s, err := p.x.renderText(t, p.sc)
	if err != nil {
		return "", p.maskErr(err)
	}
	return value.String(p.mask(s, p.x.flow)), nil
}

// maskErr redacts secrets from an evaluation error.
func (p *Point) maskErr(err error) error {
	re := classify(err)
	return &RunError{Kind: re.Kind, Msg: p.x.secrets.Redact(re.Msg)}
}
