package check

import (
	"github.com/skillscript/skillc/ast"
)

// BindKind says how a variable got its value.
type BindKind int

// The binding kinds.
const (
	BindVar      BindKind = iota + 1 // # Vars: declaration
	BindRequires                     // # Requires: user-var/system-var -> NAME
	BindSet                          // $set NAME = ...
	BindAppend                       // $append NAME ... (mutation of an existing binding)
	BindOp                           // op -> NAME
	BindIter                         // foreach NAME in ...
)

var bindKindNames = [...]string{"", "# Vars:", "# Requires:", "$set", "$append", "-> binding", "foreach iterator"}

// String describes the kind ("$set").
func (k BindKind) String() string { return bindKindNames[k] }

// Binding is one place where a variable is bound.
type Binding struct {
	Name   string
	Kind   BindKind
	Ident  *ast.Ident // the name at the binding site
	Node   ast.Node   // the VarDecl, Requirement, statement or ForeachStmt
	Value  ast.Expr   // the default (# Vars:) or assigned value ($set, $append), if any
	Target *ast.Target
	Scope  *Scope
}

// ScopeKind classifies scopes.
type ScopeKind int

// The scope kinds. Loop scopes hold the bindings made inside a foreach,
// which do not outlive it; everything else binds at skill level.
const (
	ScopeFile ScopeKind = iota
	ScopeLoop
	ScopeElse // a target's else: handler (ERROR_CONTEXT is bound here)
)

// Scope is a lexical scope.
type Scope struct {
	Kind   ScopeKind
	Parent *Scope
	Node   ast.Node // *ast.File, *ast.ForeachStmt or *ast.ElseBlock

	// The bindings made in this scope, by name: a short list searched in
	// order while the scope binds few names (a loop or else: scope usually
	// binds one or two), a map once it binds more (the skill scope).
	few  []scopeName
	many map[string]*[]*Binding
}

// scopeName is the bindings of one name in a scope.
type scopeName struct {
	name  string
	binds []*Binding
}

// maxFew is the number of names a scope lists before it uses a map.
const maxFew = 8

// Local returns the bindings of name made in s itself, in source order
// (nil when s binds no such name); Lookup also searches the enclosing
// scopes.
func (s *Scope) Local(name string) []*Binding {
	if s.many != nil {
		if bs := s.many[name]; bs != nil {
			return *bs
		}
		return nil
	}
	for i := range s.few {
		if s.few[i].name == name {
			return s.few[i].binds
		}
	}
	return nil
}

// Lookup returns the bindings of name visible from s (innermost scope first).
func (s *Scope) Lookup(name string) []*Binding {
	for sc := s; sc != nil; sc = sc.Parent {
		if b := sc.Local(name); len(b) > 0 {
			return b
		}
	}
	return nil
}

// InElse reports whether s is inside a target's else: handler.
func (s *Scope) InElse() bool {
	for sc := s; sc != nil; sc = sc.Parent {
		if sc.Kind == ScopeElse {
			return true
		}
	}
	return false
}

// Names returns every name visible from s.
func (s *Scope) Names() []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for sc := s; sc != nil; sc = sc.Parent {
		for _, n := range sc.few {
			add(n.name)
		}
		for n := range sc.many {
			add(n)
		}
	}
	return out
}

// EachName calls f with every name bound in s and the scopes around it,
// innermost first; a name bound in several of them comes once per scope
// (Names is the list without repeats). It allocates nothing.
func (s *Scope) EachName(f func(string)) {
	for sc := s; sc != nil; sc = sc.Parent {
		for _, n := range sc.few {
			f(n.name)
		}
		for n := range sc.many {
			f(n)
		}
	}
}

// RefContext says where a reference sits.
type RefContext uint8

// The reference contexts.
const (
	InOp       RefContext = iota + 1 // an op argument, $set/$append value or foreach list
	InCond                           // an if/elif condition
	InTemplate                       // the body template
	InOutput                         // an # Output: target
	InHeader                         // another header (# Timeout:, # Deadline:, # Vars: default)
	InFallback                       // an op's (fallback: ...) value
)

// Ref is one ${...} (or legacy $(...)) reference.
type Ref struct {
	Subst  *ast.Subst
	Scope  *Scope
	Target *ast.Target // enclosing target, if any
	Op     *Op         // enclosing op, if any
	// Resolution (see Resolve): exactly one of these describes the root.
	Bindings []*Binding  // visible bindings of the root name
	TargetOf *ast.Target // ${target.output}: the target named by the root
	Ambient  bool        // NOW, USER, EVENT, ... (ERROR_CONTEXT inside else:)
	// HasFallback is set when a |fallback filter rescues a missing value.
	HasFallback bool
	Context     RefContext
}

// Declared reports whether the reference's root resolves to something.
func (r *Ref) Declared() bool {
	return len(r.Bindings) > 0 || r.Ambient || r.TargetOf != nil
}

// Name returns the root name, or "".
func (r *Ref) Name() string {
	if r.Subst.Root == nil {
		return ""
	}
	return r.Subst.Root.Name
}

// Op is one statement at any nesting depth, with where it sits.
type Op struct {
	Stmt   ast.Stmt
	Target *ast.Target
	Scope  *Scope
	Loops  []*ast.ForeachStmt // enclosing loops, outermost first
	InElse bool               // inside the target's else: handler
	Conds  int32              // number of enclosing if/elif/else branches
}

// Info holds the facts about one file.
type Info struct {
	File    *ast.File
	Root    *Scope
	Binds   []*Binding
	Refs    []*Ref
	Ops     []*Op                  // in source order; see OpOf
	Targets map[string]*ast.Target // first target of each name
	Dups    []*ast.Target          // later targets reusing a name

	Graph Graph

	Declared   map[string]*ast.VarDecl     // # Vars:
	Secrets    map[string]*ast.Requirement // # Requires: secret.NAME
	Returns    []*ast.Ident
	Status     string // canonical, "" when absent
	Autonomous bool
	SkillType  string // procedural (default) or data
}

// OpOf returns the op of statement s, or nil when s is not a statement of
// the file. Ops lists statements in source order, so this is a binary
// search by position; a linear scan covers the case where positions are
// out of order (a tree not made by the parser).
func (info *Info) OpOf(s ast.Stmt) *Op {
	if s == nil {
		return nil
	}
	ops, p := info.Ops, s.Pos()
	lo, hi := 0, len(ops)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ops[m].Stmt.Pos() < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := lo; i < len(ops) && ops[i].Stmt.Pos() == p; i++ {
		if ops[i].Stmt == s {
			return ops[i]
		}
	}
	for _, op := range ops {
		if op.Stmt == s {
			return op
		}
	}
	return nil
}

// Ambient returns the ambient references that are always bound, as a
// fresh slice.
func Ambient() []string {
	return []string{"NOW", "USER", "SESSION_CONTEXT", "TRIGGER_TYPE", "TRIGGER_PAYLOAD", "EVENT"}
}

// IsAmbient reports whether name is an ambient reference outside else:.
func IsAmbient(name string) bool {
	switch name {
	case "NOW", "USER", "SESSION_CONTEXT", "TRIGGER_TYPE", "TRIGGER_PAYLOAD", "EVENT":
		return true
	}
	return false
}
