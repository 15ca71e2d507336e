package lsp

import (
	"slices"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// symKind classifies what the cursor is on.
type symKind int

const (
	symNone      symKind = iota
	symVar               // a variable: binding site, reference or # Returns: name
	symTarget            // a target name, a needs entry, default:, ${target.output}
	symSkill             // execute_skill(name="x") / inline(skill="x") value
	symConnector         // $ conn.tool: conn
	symTool              // $ conn.tool: tool (or a bare typed-contract op)
	symOp                // a function-call op name
	symKwarg             // a kwarg key
	symFilter            // |filter
	symHeader            // a header line
	symSecret            // {{secret.X}} or # Requires: secret.X
	symPath              // a .field of a substitution path
)

// symbol is the thing under the cursor.
type symbol struct {
	kind   symKind
	name   string
	rng    ast.Range // the name under the cursor
	binds  []*check.Binding
	target *ast.Target
	ref    *check.Ref
	op     ast.Stmt
	header *ast.Header
	arg    *ast.Arg
}

// symbolAt identifies the symbol at byte offset off.
func (snap *snapshot) symbolAt(off int) symbol {
	path := pathAt(snap.File, off)
	if len(path) == 0 {
		return symbol{}
	}
	leaf := path[len(path)-1]
	var parent ast.Node
	if len(path) > 1 {
		parent = path[len(path)-2]
	}
	switch n := leaf.(type) {
	case *ast.Ident:
		return snap.identSymbol(n, parent, path)
	case *ast.SecretRef:
		return symbol{kind: symSecret, name: n.Name, rng: n.Range}
	case *ast.Filter:
		if n.Name != nil {
			return symbol{kind: symFilter, name: n.Name.Name, rng: n.Name.Range}
		}
	case *ast.PathSeg:
		s := symbol{kind: symPath, name: n.Name, rng: n.Range}
		if sub, ok := parent.(*ast.Subst); ok {
			s.ref = refOf(snap.Info, sub)
		}
		return s
	case *ast.StringLit, *ast.Lit, *ast.Text, *ast.BareWord:
		if s, ok := snap.skillValueSymbol(path); ok {
			return s
		}
	case *ast.Header:
		return symbol{kind: symHeader, name: n.Kind.String(), rng: n.Range, header: n}
	}
	if h, _ := innermost[*ast.Header](path); h != nil {
		return symbol{kind: symHeader, name: h.Kind.String(), rng: h.Range, header: h}
	}
	if s, ok := snap.skillValueSymbol(path); ok {
		return s
	}
	return symbol{}
}

// identSymbol classifies an identifier by its parent.
func (snap *snapshot) identSymbol(id *ast.Ident, parent ast.Node, path []ast.Node) symbol {
	s := symbol{name: id.Name, rng: id.Range}
	switch p := parent.(type) {
	case *ast.Subst:
		return snap.substSymbol(p, s)
	case *ast.Target:
		s.kind = symTarget
		s.target = snap.Info.Targets[id.Name]
	case *ast.NeedsStmt, *ast.DefaultDecl:
		s.kind = symTarget
		s.target = snap.Info.Targets[id.Name]
	case *ast.Filter:
		s.kind = symFilter
	case *ast.DispatchStmt:
		s.op = p
		if p.Connector == id {
			s.kind = symConnector
		} else {
			s.kind = symTool
		}
	case *ast.CallStmt:
		s.kind, s.op = symOp, p
	case *ast.Arg:
		s.kind, s.arg, s.op = symKwarg, p, opAt(path)
	case *ast.Binding, *ast.VarDecl, *ast.ForeachStmt, *ast.SetStmt, *ast.AppendStmt:
		s.kind = symVar
		s.binds = snap.bindingsAt(id)
	case *ast.Requirement:
		if p.Kind == ast.ReqSecret {
			s.kind = symSecret
		} else {
			s.kind, s.binds = symVar, snap.bindingsAt(id)
		}
	case *ast.Header:
		if p.Kind == ast.HeaderReturns {
			s.kind = symVar
			s.binds = snap.Info.Root.Local(id.Name)
		} else {
			s.kind, s.header = symHeader, p
		}
	case *ast.Trigger, *ast.OutputSpec:
		h, _ := innermost[*ast.Header](path)
		s.kind, s.header = symHeader, h
	}
	if s.kind == symTarget && s.target == nil {
		s.target = snap.File.Target(id.Name)
	}
	return s
}

// substSymbol classifies the root of a substitution.
func (snap *snapshot) substSymbol(sub *ast.Subst, s symbol) symbol {
	ref := refOf(snap.Info, sub)
	s.ref = ref
	if ref != nil && ref.TargetOf != nil {
		s.kind, s.target = symTarget, ref.TargetOf
		return s
	}
	s.kind = symVar
	if ref != nil {
		s.binds = ref.Bindings
	}
	return s
}

// bindingsAt returns the bindings of the name bound at id, in id's scope.
func (snap *snapshot) bindingsAt(id *ast.Ident) []*check.Binding {
	for _, b := range snap.Info.Binds {
		if b.Ident == id {
			return b.Scope.Local(id.Name)
		}
	}
	return nil
}

// skillValueSymbol recognises the name value of execute_skill / inline.
func (snap *snapshot) skillValueSymbol(path []ast.Node) (symbol, bool) {
	arg, _ := innermost[*ast.Arg](path)
	call, _ := innermost[*ast.CallStmt](path)
	if arg == nil || call == nil || arg.Key == nil || arg.Value == nil {
		return symbol{}, false
	}
	if call.Name == nil || !isSkillArg(call.Name.Name, arg.Key.Name) {
		return symbol{}, false
	}
	name, rng, ok := literalValue(arg.Value)
	if !ok {
		return symbol{}, false
	}
	return symbol{kind: symSkill, name: name, rng: rng, op: call, arg: arg}, true
}

// isSkillArg reports whether key is the kwarg of the intrinsic op that names
// the skill it runs or inlines (execute_skill name=/skill_name=, inline skill=).
func isSkillArg(op, key string) bool {
	o, ok := lang.Op(op)
	return ok && o.Class == lang.Intrinsic && slices.Contains(o.SkillArgs(), key)
}

// literalValue returns the literal text of a string or bare word and the
// range of its contents.
func literalValue(e ast.Expr) (string, ast.Range, bool) {
	switch v := e.(type) {
	case *ast.StringLit:
		s, ok := v.Value.LitValue()
		r := v.Range
		if v.Kind != ast.TripleQuoted && r.To-r.From >= 2 {
			r = ast.Range{From: r.From + 1, To: r.To - 1}
		}
		return s, r, ok
	case *ast.BareWord:
		s, ok := v.Value.LitValue()
		return s, v.Range, ok
	}
	return "", ast.Range{}, false
}
