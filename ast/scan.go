package ast

// Kind identifies the type of a node, for the type masks of [Scan]. The
// zero Kind is no node.
type Kind uint8

// The node kinds, one per node type.
const (
	KindNone Kind = iota
	KindFile
	KindHeader
	KindKeyValue
	KindStatusValue
	KindVarDecl
	KindRequirement
	KindTrigger
	KindOutputSpec
	KindTestsBlock
	KindTestCase
	KindTestExpect
	KindComment
	KindDefaultDecl
	KindTemplate
	KindTemplateLine
	KindTarget
	KindElseBlock
	KindBlock
	KindBadStmt
	KindNeedsStmt
	KindSetStmt
	KindAppendStmt
	KindBinding
	KindFallback
	KindArg
	KindDispatchStmt
	KindCallStmt
	KindLegacyOpStmt
	KindIfStmt
	KindCondClause
	KindForeachStmt
	KindCompareCond
	KindTruthyCond
	KindNotCond
	KindLogicalCond
	KindParenCond
	KindIdent
	KindText
	KindLit
	KindSubst
	KindPathSeg
	KindFilter
	KindFilterArg
	KindSecretRef
	KindStringLit
	KindNumberLit
	KindBoolLit
	KindNullLit
	KindBareWord
	KindListLit
	KindObjectLit
	KindObjEntry
	numKinds
)

// Mask is a set of node kinds.
type Mask uint64

// Mask returns the set holding k alone.
func (k Kind) Mask() Mask { return 1 << k }

// Kinds returns the set of the given kinds.
func Kinds(ks ...Kind) Mask {
	var m Mask
	for _, k := range ks {
		m |= k.Mask()
	}
	return m
}

// AllKinds is the set of every node kind.
const AllKinds Mask = 1<<numKinds - 2

// Has reports whether k is in m.
func (m Mask) Has(k Kind) bool { return m&(1<<k) != 0 }

// KindOf returns the kind of n (KindNone for nil or an unknown type).
func KindOf(n Node) Kind {
	switch n.(type) {
	case *File:
		return KindFile
	case *Header:
		return KindHeader
	case *KeyValue:
		return KindKeyValue
	case *StatusValue:
		return KindStatusValue
	case *VarDecl:
		return KindVarDecl
	case *Requirement:
		return KindRequirement
	case *Trigger:
		return KindTrigger
	case *OutputSpec:
		return KindOutputSpec
	case *TestsBlock:
		return KindTestsBlock
	case *TestCase:
		return KindTestCase
	case *TestExpect:
		return KindTestExpect
	case *Comment:
		return KindComment
	case *DefaultDecl:
		return KindDefaultDecl
	case *Template:
		return KindTemplate
	case *TemplateLine:
		return KindTemplateLine
	case *Target:
		return KindTarget
	case *ElseBlock:
		return KindElseBlock
	case *Block:
		return KindBlock
	case *BadStmt:
		return KindBadStmt
	case *NeedsStmt:
		return KindNeedsStmt
	case *SetStmt:
		return KindSetStmt
	case *AppendStmt:
		return KindAppendStmt
	case *Binding:
		return KindBinding
	case *Fallback:
		return KindFallback
	case *Arg:
		return KindArg
	case *DispatchStmt:
		return KindDispatchStmt
	case *CallStmt:
		return KindCallStmt
	case *LegacyOpStmt:
		return KindLegacyOpStmt
	case *IfStmt:
		return KindIfStmt
	case *CondClause:
		return KindCondClause
	case *ForeachStmt:
		return KindForeachStmt
	case *CompareCond:
		return KindCompareCond
	case *TruthyCond:
		return KindTruthyCond
	case *NotCond:
		return KindNotCond
	case *LogicalCond:
		return KindLogicalCond
	case *ParenCond:
		return KindParenCond
	case *Ident:
		return KindIdent
	case *Text:
		return KindText
	case *Lit:
		return KindLit
	case *Subst:
		return KindSubst
	case *PathSeg:
		return KindPathSeg
	case *Filter:
		return KindFilter
	case *FilterArg:
		return KindFilterArg
	case *SecretRef:
		return KindSecretRef
	case *StringLit:
		return KindStringLit
	case *NumberLit:
		return KindNumberLit
	case *BoolLit:
		return KindBoolLit
	case *NullLit:
		return KindNullLit
	case *BareWord:
		return KindBareWord
	case *ListLit:
		return KindListLit
	case *ObjectLit:
		return KindObjectLit
	case *ObjEntry:
		return KindObjEntry
	}
	return KindNone
}

// Scan traverses the tree rooted at root once, in the depth-first order
// of [Inspect], and calls f only for the nodes whose kind is in want:
// f(n, k, true) before n's subtree and f(n, k, false) after it. When
// f(n, k, true) returns false, n's subtree and the call after it are
// skipped (the result of the call after a subtree is ignored).
//
// It is the one traversal that several consumers share: the lint rules
// subscribe to the kinds they need and keep their own context, such as
// the enclosing statement, from the enter and leave calls. Unlike Inspect
// it calls no function value for the nodes it is not asked about and
// allocates nothing, except a File's merged list of top-level nodes.
func Scan(root Node, want Mask, f func(n Node, k Kind, enter bool) bool) {
	s := scanner{want: want, f: f}
	s.node(root)
}

// scanner is the traversal behind Scan. It mirrors eachChild case by case
// (TestScanOrder holds them together) with direct calls instead of a
// callback per child.
type scanner struct {
	want Mask
	f    func(Node, Kind, bool) bool
}

// enter reports n if its kind is wanted; entered says whether the leave
// call is due, skip whether the subtree is skipped.
func (s *scanner) enter(n Node, k Kind) (entered, skip bool) {
	if s.want&(1<<k) != 0 {
		if !s.f(n, k, true) {
			return false, true
		}
		return true, false
	}
	return false, false
}

func (s *scanner) leave(n Node, k Kind, entered bool) {
	if entered {
		s.f(n, k, false)
	}
}

// leaf reports a node without children.
func (s *scanner) leaf(n Node, k Kind) {
	if s.want&(1<<k) != 0 && s.f(n, k, true) {
		s.f(n, k, false)
	}
}

func (s *scanner) ident(id *Ident) {
	if id != nil && s.want&(1<<KindIdent) != 0 && s.f(id, KindIdent, true) {
		s.f(id, KindIdent, false)
	}
}

func (s *scanner) text(t *Text) {
	if t == nil {
		return
	}
	e, skip := s.enter(t, KindText)
	if skip {
		return
	}
	for _, p := range t.Parts {
		switch p := p.(type) {
		case *Lit:
			s.leaf(p, KindLit)
		case *Subst:
			s.subst(p)
		default:
			s.node(p)
		}
	}
	s.leave(t, KindText, e)
}

func (s *scanner) subst(n *Subst) {
	e, skip := s.enter(n, KindSubst)
	if skip {
		return
	}
	s.ident(n.Root)
	for _, p := range n.Path {
		s.leaf(p, KindPathSeg)
	}
	for _, f := range n.Filters {
		s.node(f)
	}
	s.leave(n, KindSubst, e)
}

func (s *scanner) block(b *Block) {
	if b == nil {
		return
	}
	e, skip := s.enter(b, KindBlock)
	if skip {
		return
	}
	for _, st := range b.Stmts {
		s.node(st)
	}
	s.leave(b, KindBlock, e)
}

func (s *scanner) elseBlock(b *ElseBlock) {
	if b == nil {
		return
	}
	e, skip := s.enter(b, KindElseBlock)
	if skip {
		return
	}
	s.block(b.Body)
	s.leave(b, KindElseBlock, e)
}

func (s *scanner) binding(b *Binding) {
	if b == nil {
		return
	}
	e, skip := s.enter(b, KindBinding)
	if skip {
		return
	}
	s.ident(b.Name)
	s.leave(b, KindBinding, e)
}

func (s *scanner) fallback(f *Fallback) {
	if f == nil {
		return
	}
	e, skip := s.enter(f, KindFallback)
	if skip {
		return
	}
	s.node(f.Value)
	s.leave(f, KindFallback, e)
}

func (s *scanner) filterArg(a *FilterArg) {
	if a == nil {
		return
	}
	e, skip := s.enter(a, KindFilterArg)
	if skip {
		return
	}
	s.text(a.Text)
	s.leave(a, KindFilterArg, e)
}

func (s *scanner) bindFallback(b *Binding, f *Fallback) {
	if b != nil && f != nil && f.Pos() < b.Pos() {
		s.fallback(f)
		s.binding(b)
		return
	}
	s.binding(b)
	s.fallback(f)
}

func (s *scanner) arg(a *Arg) {
	e, skip := s.enter(a, KindArg)
	if skip {
		return
	}
	s.ident(a.Key)
	s.node(a.Value)
	s.leave(a, KindArg, e)
}

func (s *scanner) args(args []*Arg, pos []Expr) {
	for _, a := range args {
		s.arg(a)
	}
	for _, p := range pos {
		s.node(p)
	}
}

// node visits n and its subtree; nil and typed-nil nodes are skipped as
// eachChild skips them (a typed nil of a type isNil does not list would
// make eachChild fail, so no tree holds one).
func (s *scanner) node(n Node) {
	if n == nil {
		return // typed nils: each case (or the helper it calls) tests its pointer
	}
	switch n := n.(type) {
	case *Ident:
		s.ident(n)
	case *Lit:
		s.leaf(n, KindLit)
	case *SecretRef:
		s.leaf(n, KindSecretRef)
	case *Text:
		s.text(n)
	case *Subst:
		s.subst(n)
	case *StringLit:
		e, skip := s.enter(n, KindStringLit)
		if skip {
			return
		}
		s.text(n.Value)
		s.leave(n, KindStringLit, e)
	case *BareWord:
		e, skip := s.enter(n, KindBareWord)
		if skip {
			return
		}
		s.text(n.Value)
		s.leave(n, KindBareWord, e)
	case *Filter:
		e, skip := s.enter(n, KindFilter)
		if skip {
			return
		}
		s.ident(n.Name)
		s.filterArg(n.Arg)
		s.leave(n, KindFilter, e)
	case *FilterArg:
		s.filterArg(n)
	case *File:
		e, skip := s.enter(n, KindFile)
		if skip {
			return
		}
		for _, c := range fileChildren(n) {
			s.node(c)
		}
		s.leave(n, KindFile, e)
	case *Header:
		e, skip := s.enter(n, KindHeader)
		if skip {
			return
		}
		s.ident(n.Key)
		headerChildren(n, s.node)
		s.leave(n, KindHeader, e)
	case *StatusValue, *Comment, *PathSeg, *NumberLit, *BoolLit, *NullLit, *BadStmt, *TestExpect:
		s.leaf(n, KindOf(n))
	case *VarDecl:
		e, skip := s.enter(n, KindVarDecl)
		if skip {
			return
		}
		s.ident(n.Name)
		s.node(n.Default)
		s.leave(n, KindVarDecl, e)
	case *Requirement:
		e, skip := s.enter(n, KindRequirement)
		if skip {
			return
		}
		s.ident(n.Key)
		s.bindFallback(n.Bind, n.Fallback)
		s.leave(n, KindRequirement, e)
	case *Trigger:
		e, skip := s.enter(n, KindTrigger)
		if skip {
			return
		}
		s.ident(n.Source)
		s.leave(n, KindTrigger, e)
	case *KeyValue:
		e, skip := s.enter(n, KindKeyValue)
		if skip {
			return
		}
		s.ident(n.Key)
		for _, it := range n.Items {
			s.node(it)
		}
		s.leave(n, KindKeyValue, e)
	case *OutputSpec:
		e, skip := s.enter(n, KindOutputSpec)
		if skip {
			return
		}
		s.ident(n.Kind)
		s.text(n.Target)
		s.leave(n, KindOutputSpec, e)
	case *TestsBlock:
		e, skip := s.enter(n, KindTestsBlock)
		if skip {
			return
		}
		for _, c := range n.Cases {
			s.node(c)
		}
		s.leave(n, KindTestsBlock, e)
	case *TestCase:
		e, skip := s.enter(n, KindTestCase)
		if skip {
			return
		}
		for _, x := range n.Expect {
			s.node(x)
		}
		s.leave(n, KindTestCase, e)
	case *DefaultDecl:
		e, skip := s.enter(n, KindDefaultDecl)
		if skip {
			return
		}
		s.ident(n.Goal)
		s.leave(n, KindDefaultDecl, e)
	case *Template:
		e, skip := s.enter(n, KindTemplate)
		if skip {
			return
		}
		for _, l := range n.Lines {
			s.node(l)
		}
		s.leave(n, KindTemplate, e)
	case *TemplateLine:
		e, skip := s.enter(n, KindTemplateLine)
		if skip {
			return
		}
		s.text(n.Text)
		s.leave(n, KindTemplateLine, e)
	case *Target:
		e, skip := s.enter(n, KindTarget)
		if skip {
			return
		}
		s.ident(n.Name)
		for _, d := range n.Needs {
			if !inNeedsStmt(n, d) {
				s.ident(d)
			}
		}
		s.block(n.Body)
		s.elseBlock(n.Else)
		s.leave(n, KindTarget, e)
	case *ElseBlock:
		s.elseBlock(n)
	case *Block:
		s.block(n)
	case *NeedsStmt:
		e, skip := s.enter(n, KindNeedsStmt)
		if skip {
			return
		}
		for _, d := range n.Names {
			s.ident(d)
		}
		s.leave(n, KindNeedsStmt, e)
	case *SetStmt:
		e, skip := s.enter(n, KindSetStmt)
		if skip {
			return
		}
		s.ident(n.Name)
		s.node(n.Value)
		s.leave(n, KindSetStmt, e)
	case *AppendStmt:
		e, skip := s.enter(n, KindAppendStmt)
		if skip {
			return
		}
		s.ident(n.Name)
		s.node(n.Value)
		s.leave(n, KindAppendStmt, e)
	case *Binding:
		s.binding(n)
	case *Fallback:
		s.fallback(n)
	case *Arg:
		s.arg(n)
	case *DispatchStmt:
		e, skip := s.enter(n, KindDispatchStmt)
		if skip {
			return
		}
		s.ident(n.Connector)
		s.ident(n.Tool)
		s.args(n.Args, n.Positional)
		s.bindFallback(n.Bind, n.Fallback)
		s.leave(n, KindDispatchStmt, e)
	case *CallStmt:
		e, skip := s.enter(n, KindCallStmt)
		if skip {
			return
		}
		s.ident(n.Name)
		s.args(n.Args, n.Positional)
		s.bindFallback(n.Bind, n.Fallback)
		s.leave(n, KindCallStmt, e)
	case *LegacyOpStmt:
		e, skip := s.enter(n, KindLegacyOpStmt)
		if skip {
			return
		}
		s.binding(n.Bind)
		s.leave(n, KindLegacyOpStmt, e)
	case *IfStmt:
		e, skip := s.enter(n, KindIfStmt)
		if skip {
			return
		}
		for _, c := range n.Clauses {
			s.node(c)
		}
		s.elseBlock(n.Else)
		s.leave(n, KindIfStmt, e)
	case *CondClause:
		e, skip := s.enter(n, KindCondClause)
		if skip {
			return
		}
		s.node(n.Cond)
		s.block(n.Body)
		s.leave(n, KindCondClause, e)
	case *ForeachStmt:
		e, skip := s.enter(n, KindForeachStmt)
		if skip {
			return
		}
		s.ident(n.Iter)
		s.node(n.List)
		s.block(n.Body)
		s.leave(n, KindForeachStmt, e)
	case *ListLit:
		e, skip := s.enter(n, KindListLit)
		if skip {
			return
		}
		for _, x := range n.Elems {
			s.node(x)
		}
		s.leave(n, KindListLit, e)
	case *ObjectLit:
		e, skip := s.enter(n, KindObjectLit)
		if skip {
			return
		}
		for _, x := range n.Entries {
			s.node(x)
		}
		s.leave(n, KindObjectLit, e)
	case *ObjEntry:
		e, skip := s.enter(n, KindObjEntry)
		if skip {
			return
		}
		s.node(n.Key)
		s.node(n.Value)
		s.leave(n, KindObjEntry, e)
	case *CompareCond:
		e, skip := s.enter(n, KindCompareCond)
		if skip {
			return
		}
		s.node(n.X)
		s.node(n.Y)
		s.leave(n, KindCompareCond, e)
	case *TruthyCond:
		e, skip := s.enter(n, KindTruthyCond)
		if skip {
			return
		}
		s.node(n.X)
		s.leave(n, KindTruthyCond, e)
	case *NotCond:
		e, skip := s.enter(n, KindNotCond)
		if skip {
			return
		}
		s.node(n.X)
		s.leave(n, KindNotCond, e)
	case *LogicalCond:
		e, skip := s.enter(n, KindLogicalCond)
		if skip {
			return
		}
		s.node(n.X)
		s.node(n.Y)
		s.leave(n, KindLogicalCond, e)
	case *ParenCond:
		e, skip := s.enter(n, KindParenCond)
		if skip {
			return
		}
		s.node(n.X)
		s.leave(n, KindParenCond, e)
	}
}
