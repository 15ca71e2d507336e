package lint

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// index sorts the checker's ops and references once per file into the
// lists the rules iterate, so that a rule about shell(...) visits the
// shell calls only, and a rule about filters only the references that
// have one, instead of every rule going through every op and reference.
// Each list keeps the order of info.Ops or info.Refs.
type index struct {
	dispatches []*ast.DispatchStmt // every $ dispatch
	argOps     []ast.Stmt          // the calls and dispatches together, in op order
	sets       []*ast.SetStmt
	legacy     []*ast.LegacyOpStmt
	foreachs   []*ast.ForeachStmt
	appends    []*check.Op // $append ops with a name

	groups  []callGroup    // named calls by name, names in order of first use
	groupOf map[string]int // the index of a name in groups, once there are more than groupScan names

	filtered   []*check.Ref // references with at least one filter
	pathed     []*check.Ref // references with a path (${X.a})
	legacyRefs []*check.Ref // the $(...) shape
	unresolved []*check.Ref // unresolved(r): resolving to nothing, no |fallback
	inDispatch []*check.Ref // references inside a $ dispatch
}

// callGroup is the calls of one name.
type callGroup struct {
	name  string
	calls []*ast.CallStmt
}

// idx returns the file's index, building it on first use. The ops are
// gone through twice, to count and then to fill lists of the exact size:
// growing them by appending was most of the cost of building them.
func (s *state) idx() *index {
	if s.index != nil {
		return s.index
	}
	x := &index{}
	s.index = x
	var nArg, nDispatch, nSet, nLegacy, nForeach, nAppend int
	var counts []int
	gid := make([]int32, 0, len(s.info.Ops)) // the group of each call, -1 for no name
	last := -1                               // the previous call's group: calls of one name often follow each other
	for _, op := range s.info.Ops {
		switch st := op.Stmt.(type) {
		case *ast.CallStmt:
			nArg++
			if st.Name == nil {
				gid = append(gid, -1)
				continue
			}
			name := st.Name.Name
			if last < 0 || x.groups[last].name != name {
				g, ok := x.group(name)
				if !ok {
					g = x.addGroup(name)
					counts = append(counts, 0)
				}
				last = g
			}
			gid = append(gid, int32(last))
			counts[last]++
		case *ast.DispatchStmt:
			nArg++
			nDispatch++
		case *ast.SetStmt:
			nSet++
		case *ast.LegacyOpStmt:
			nLegacy++
		case *ast.ForeachStmt:
			nForeach++
		case *ast.AppendStmt:
			if st.Name != nil {
				nAppend++
			}
		}
	}
	x.argOps = make([]ast.Stmt, 0, nArg)
	x.dispatches = make([]*ast.DispatchStmt, 0, nDispatch)
	x.sets = make([]*ast.SetStmt, 0, nSet)
	x.legacy = make([]*ast.LegacyOpStmt, 0, nLegacy)
	x.foreachs = make([]*ast.ForeachStmt, 0, nForeach)
	x.appends = make([]*check.Op, 0, nAppend)
	named := make([]*ast.CallStmt, len(gid))
	off := 0
	for g, n := range counts {
		x.groups[g].calls = named[off : off : off+n]
		off += n
	}
	call := 0
	for _, op := range s.info.Ops {
		switch st := op.Stmt.(type) {
		case *ast.CallStmt:
			x.argOps = append(x.argOps, st)
			if g := gid[call]; g >= 0 {
				x.groups[g].calls = append(x.groups[g].calls, st)
			}
			call++
		case *ast.DispatchStmt:
			x.argOps = append(x.argOps, st)
			x.dispatches = append(x.dispatches, st)
		case *ast.SetStmt:
			x.sets = append(x.sets, st)
		case *ast.LegacyOpStmt:
			x.legacy = append(x.legacy, st)
		case *ast.ForeachStmt:
			x.foreachs = append(x.foreachs, st)
		case *ast.AppendStmt:
			if st.Name != nil {
				x.appends = append(x.appends, op)
			}
		}
	}
	x.refLists(s.info.Refs)
	return x
}

// refLists fills the lists of references, carved from one array: a first
// pass counts each list.
func (x *index) refLists(refs []*check.Ref) {
	var nF, nP, nL, nU, nD int
	for _, r := range refs {
		sub := r.Subst
		if len(sub.Filters) > 0 {
			nF++
		}
		if len(sub.Path) > 0 {
			nP++
		}
		if sub.Legacy {
			nL++
		}
		if unresolved(r) {
			nU++
		}
		if r.Op != nil {
			if _, ok := r.Op.Stmt.(*ast.DispatchStmt); ok {
				nD++
			}
		}
	}
	if n := nF + nP + nL + nU + nD; n > 0 {
		all := make([]*check.Ref, 0, n)
		carve := func(k int) []*check.Ref {
			if k == 0 {
				return nil
			}
			l := all[len(all) : len(all) : len(all)+k]
			all = all[:len(all)+k]
			return l
		}
		x.filtered, x.pathed, x.legacyRefs, x.unresolved, x.inDispatch = carve(nF), carve(nP), carve(nL), carve(nU), carve(nD)
	}
	for _, r := range refs {
		sub := r.Subst
		if len(sub.Filters) > 0 {
			x.filtered = append(x.filtered, r)
		}
		if len(sub.Path) > 0 {
			x.pathed = append(x.pathed, r)
		}
		if sub.Legacy {
			x.legacyRefs = append(x.legacyRefs, r)
		}
		if unresolved(r) {
			x.unresolved = append(x.unresolved, r)
		}
		if r.Op != nil {
			if _, ok := r.Op.Stmt.(*ast.DispatchStmt); ok {
				x.inDispatch = append(x.inDispatch, r)
			}
		}
	}
}

// groupScan is the number of call names looked up by a scan of groups;
// beyond it, by the groupOf map (a small skill calls a few names: a map
// per file cost more than the scans).
const groupScan = 8

// group returns the index in groups of the calls named name.
func (x *index) group(name string) (int, bool) {
	if x.groupOf != nil {
		g, ok := x.groupOf[name]
		return g, ok
	}
	for g := range x.groups {
		if x.groups[g].name == name {
			return g, true
		}
	}
	return 0, false
}

// addGroup appends the group of a new name and returns its index.
func (x *index) addGroup(name string) int {
	g := len(x.groups)
	x.groups = append(x.groups, callGroup{name: name})
	switch {
	case x.groupOf != nil:
		x.groupOf[name] = g
	case len(x.groups) > groupScan:
		x.groupOf = make(map[string]int, 2*len(x.groups))
		for i, c := range x.groups {
			x.groupOf[c.name] = i
		}
	}
	return g
}

// callsNamed returns the calls named name, in op order.
func (x *index) callsNamed(name string) []*ast.CallStmt {
	if g, ok := x.group(name); ok {
		return x.groups[g].calls
	}
	return nil
}

// callsNamedAny returns the calls named any of names, in op order.
func (x *index) callsNamedAny(names ...string) []*ast.CallStmt {
	n := 0
	for _, name := range names {
		n += len(x.callsNamed(name))
	}
	if n == 0 {
		return nil
	}
	out := make([]*ast.CallStmt, 0, n)
	for _, s := range x.argOps {
		if c, ok := s.(*ast.CallStmt); ok && c.Name != nil && contains(names, c.Name.Name) {
			out = append(out, c)
		}
	}
	return out
}
