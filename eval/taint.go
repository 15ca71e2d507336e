package eval

import (
	"strings"

	"github.com/skillscript/skillc/ast"
)

// Taint tracking (issue 13 item 8). A value produced by a sink that
// received a secret (a connector call or shell op whose arguments held a
// {{secret.NAME}}), and every value derived from one, is tainted: it is
// usable in the run (as a connector or shell argument, in conditions) and
// redacted whole at every output boundary, whatever its spelling. Taint
// rides on bindings (one flag per variable, with its size) and flows per
// statement: a statement that reads a tainted variable, or runs in a
// branch chosen by a tainted condition, taints all it binds, emits or
// raises. Pattern redaction of the secret values stays as a second layer
// at the output boundaries only: inside the run no value is rewritten, so
// redaction cannot serve as an oracle.

// TaintMarker replaces a tainted value at an output boundary.
const TaintMarker = "{{secret-derived}}"

// varMeta is what the evaluator keeps beside a binding: its estimated
// size (for the memory estimate) and its taint.
type varMeta struct {
	size    int64
	tainted bool
}

// taint marks the current statement as carrying secret-derived data.
func (x *run) taint() {
	x.flow = true
	x.touched = true
}

// tainted reports whether name, as seen from sc, is bound to a tainted
// value. It costs nothing in a run that has bound no tainted value.
func (x *run) tainted(name string, sc *scope) bool {
	if !x.touched {
		return false // inlined: the common case costs no call
	}
	return x.taintedIn(name, sc)
}

// taintedIn is tainted for a run that has seen tainted data.
func (x *run) taintedIn(name string, sc *scope) bool {
	for s := sc; s != nil; s = s.parent {
		if i := s.find(name); i >= 0 {
			return s.ents[i].m.tainted
		}
	}
	return x.targetTaint[name] || x.unboundTaint[name]
}

// flowFrom starts a statement: its taint is the taint of the branch it
// runs in. It returns the enclosing statement's taint, for endFlow.
func (x *run) flowFrom() bool {
	saved := x.flow
	x.flow = x.pc
	return saved
}

// underTaint runs fn with the control context tainted when cond is set
// (a branch chosen by a tainted condition, the body of a loop over a
// tainted list, the else: handler of a tainted failure).
func (x *run) underTaint(cond bool, fn func() error) error {
	if cond && !x.pc {
		return x.underTaintSet(fn)
	}
	return fn()
}

// underTaintSet runs fn with the control context tainted.
func (x *run) underTaintSet(fn func() error) error {
	x.pc, x.touched = true, true
	defer func() { x.pc = false }()
	return fn()
}

// redactTainted replaces s with TaintMarker when tainted.
func redactTainted(s string, tainted bool) string {
	if tainted && s != "" {
		return TaintMarker
	}
	return s
}

// redactTaint replaces the tainted parts of a root result whole: tainted
// emissions, an output that came from tainted data (rebuilt from the
// redacted emissions when it is their join) and tainted error messages.
func redactTaint(res *Result) {
	res.Emissions = redactedEmissions(res)
	switch {
	case res.outFrom == outEmissions:
		res.Outputs.Text = strings.Join(res.Emissions, "\n")
	case res.outTaint:
		res.Outputs.Text = TaintMarker
	}
	redactErrorTaint(res.Errors)
}

func redactErrorTaint(errs []ErrorInfo) {
	for i := range errs {
		if errs[i].tainted {
			errs[i].Message = TaintMarker
		}
		redactErrorTaint(errs[i].Nested)
	}
}

// redactedEmissions returns res's emissions with the tainted ones replaced
// whole.
func redactedEmissions(res *Result) []string {
	out := make([]string, len(res.Emissions))
	for i, e := range res.Emissions {
		out[i] = redactTainted(e, i < len(res.emitTaint) && res.emitTaint[i])
	}
	return out
}

// taintBranches handles the branches an if chose not to take when its
// conditions read tainted data (and the iterations a foreach over a
// tainted list did not run): every variable any branch may bind is
// tainted where it is bound now, and one not bound yet taints whoever
// reads it while it stays unbound (its absence says which branch ran).
func (x *run) taintBranches(s ast.Node, sc *scope) {
	if !x.flow {
		return
	}
	ast.Inspect(s, func(n ast.Node) bool {
		var name string
		switch n := n.(type) {
		case *ast.SetStmt:
			name = n.Name.Name
		case *ast.AppendStmt:
			name = n.Name.Name
		case *ast.CallStmt:
			name = bindName(n.Bind)
		case *ast.DispatchStmt:
			name = bindName(n.Bind)
		}
		if name == "" {
			return true
		}
		if owner := sc.owner(name); owner != nil {
			m := owner.metaOf(name)
			m.size, _ = owner.sizeHeld(name)
			m.tainted = true
			owner.setMeta(name, m)
			return true
		}
		if x.unboundTaint == nil {
			x.unboundTaint = map[string]bool{}
		}
		x.unboundTaint[name] = true
		return true
	})
}

func bindName(b *ast.Binding) string {
	if b == nil || b.Name == nil {
		return ""
	}
	return b.Name.Name
}
