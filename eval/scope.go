package eval

// scope is a variable scope. Its bindings are kept in a slice searched
// linearly while it is small (a loop scope, most skills' roots), which
// costs no map operations on the hot path of a loop; an index by name is
// built once a scope grows past scopeLinear bindings.
type scope struct {
	kind   scopeKind
	ents   []binding
	index  map[string]int // name → position in ents; nil while small
	held   int64          // bytes bound here (released when a loop scope dies)
	parent *scope
}

// binding is one variable of a scope with what the evaluator keeps beside
// it: its recorded size and taint (rec says whether m was recorded; an
// unrecorded binding's size is measured again when it is replaced).
type binding struct {
	name string
	v    any
	// A list grown by $append is kept unboxed in list (lazy set) and
	// boxed into v only when read: appending in a loop then costs no
	// allocation for a new interface value per element.
	list []any
	m    varMeta
	rec  bool
	lazy bool
}

// value returns the binding's value.
func (e *binding) value() any {
	if e.lazy {
		e.v, e.list, e.lazy = e.list, nil, false
	}
	return e.v
}

// setList binds the list l (see binding.list).
func (e *binding) setList(l []any) {
	e.v, e.list, e.lazy = nil, l, true
}

// scopeLinear is the number of bindings up to which a scope is searched
// without an index.
const scopeLinear = 8

func newScope(kind scopeKind, parent *scope) *scope {
	return &scope{kind: kind, ents: make([]binding, 0, 4), parent: parent}
}

// find returns the position of name's binding in s, or -1.
func (s *scope) find(name string) int {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i
		}
		return -1
	}
	for i := range s.ents {
		if n := s.ents[i].name; len(n) == len(name) && sameName(n, name) {
			return i
		}
	}
	return -1
}

// sameName reports whether the names a and b, of the same length, are
// equal. Variable names are short: a byte loop settles them without a
// call to compare memory.
func sameName(a, b string) bool {
	for i := range len(a) {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// add appends a binding of name to v to s and returns its position,
// writing the fields of a slot already allocated rather than copying a
// whole binding.
func (s *scope) add(name string, v any) int {
	i := len(s.ents)
	if i == cap(s.ents) {
		s.ents = append(s.ents, binding{name: name, v: v})
	} else {
		s.ents = s.ents[:i+1]
		e := &s.ents[i]
		e.name, e.v, e.list = name, v, nil
		e.m, e.rec, e.lazy = varMeta{}, false, false
	}
	s.indexed(i)
	return i
}

// bindFirst binds name to v as the first binding of the emptied loop
// scope s (see reset), field by field rather than by copying a whole
// binding.
func (s *scope) bindFirst(name string, v any) {
	if cap(s.ents) == 0 {
		s.ents = append(s.ents, binding{name: name, v: v})
		return
	}
	s.ents = s.ents[:1]
	e := &s.ents[0]
	e.name, e.v, e.list = name, v, nil
	e.m, e.rec, e.lazy = varMeta{}, false, false
}

// get returns name's value in s itself (not its parents).
func (s *scope) get(name string) (any, bool) {
	if i := s.find(name); i >= 0 {
		return s.ents[i].value(), true
	}
	return nil, false
}

// set binds name to v in s, keeping what is recorded about the binding.
func (s *scope) set(name string, v any) {
	if i := s.find(name); i >= 0 {
		e := &s.ents[i]
		e.v, e.list, e.lazy = v, nil, false
		return
	}
	s.add(name, v)
}

// indexed keeps the index up to date after binding i was added.
func (s *scope) indexed(i int) {
	switch {
	case s.index != nil:
		s.index[s.ents[i].name] = i
	case len(s.ents) > scopeLinear:
		s.index = make(map[string]int, 2*len(s.ents))
		for i := range s.ents {
			s.index[s.ents[i].name] = i
		}
	}
}

// reset empties s for the next iteration of a loop: what a fresh scope
// would hold, without allocating one. The bindings past the new length
// are not cleared: the next bindings overwrite them whole, and until then
// they keep at most one iteration's values reachable (execForeach clears
// them when the loop ends).
func (s *scope) reset() {
	s.ents = s.ents[:0]
	s.index = nil
	s.held = 0
}

// lookup finds name in s or its parents.
func (s *scope) lookup(name string) (any, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if i := sc.find(name); i >= 0 {
			return sc.ents[i].value(), true
		}
	}
	return nil, false
}

// entry returns the scope holding name and its binding there, or nils.
// The binding stays valid until the next binding is added to that scope.
func (s *scope) entry(name string) (*scope, *binding) {
	for sc := s; sc != nil; sc = sc.parent {
		if i := sc.find(name); i >= 0 {
			return sc, &sc.ents[i]
		}
	}
	return nil, nil
}

// owner returns the scope holding name, or nil.
func (s *scope) owner(name string) *scope {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.find(name) >= 0 {
			return sc
		}
	}
	return nil
}

// metaOf returns the size and taint recorded for name's binding in s (the
// zero varMeta when none is).
func (s *scope) metaOf(name string) varMeta {
	if i := s.find(name); i >= 0 {
		return s.ents[i].m
	}
	return varMeta{}
}

// setMeta records the size and taint of name's binding in s; name must be
// bound in s.
func (s *scope) setMeta(name string, m varMeta) {
	if i := s.find(name); i >= 0 {
		s.ents[i].m, s.ents[i].rec = m, true
	}
}

// metaMinSize is the size from which an untainted binding's size is
// recorded; a smaller one is measured again when it is replaced, so that
// the common small binding costs no bookkeeping.
const metaMinSize = 256

// sizeHeld returns the size counted for name's binding in s, and whether
// its size and taint are recorded.
func (s *scope) sizeHeld(name string) (int64, bool) {
	i := s.find(name)
	if i < 0 {
		return 0, false
	}
	return s.ents[i].sizeHeld()
}

// sizeHeld returns the size counted for the binding, and whether its size
// and taint are recorded.
func (e *binding) sizeHeld() (int64, bool) {
	switch {
	case e.rec:
		return e.m.size, true
	case e.lazy:
		return sizeOf(e.list), false
	}
	return sizeOf(e.v), false
}
