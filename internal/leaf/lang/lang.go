package lang

import (
	"slices"
	"sync"
)

// Class is the syntactic class of an op.
type Class int

// The op classes.
const (
	// Intrinsic is a runtime-intrinsic function call: verb(key=value, ...).
	Intrinsic Class = iota + 1
	// TypedContract is a bare "$ name key=value ..." dispatch through a
	// typed runtime contract (the wired model, data store or skill store).
	TypedContract
)

// String returns "intrinsic" or "typed-contract".
func (c Class) String() string {
	switch c {
	case Intrinsic:
		return "intrinsic"
	case TypedContract:
		return "typed-contract"
	}
	return ""
}

// Binding is the binding rule of an op or statement: whether "-> NAME"
// may, must or cannot follow it.
type Binding string

// The binding rules. The empty Binding means the rule does not apply (a
// control-flow keyword).
const (
	BindNone     Binding = "none"     // no "-> NAME"
	BindOptional Binding = "optional" // "-> NAME" may follow
	BindRequired Binding = "required" // "-> NAME" must follow
	BindName     Binding = "name"     // the statement names its variable itself ($set, $append)
)

// Mutation says whether an op changes state outside the run.
type Mutation int

// The mutation classes.
const (
	// Never: the op is read-only.
	Never Mutation = iota
	// Always: the op is mutation-classified and needs approved= or
	// # Autonomous: true.
	Always
	// Sometimes: the arguments decide (shell: unsafe=true or a destructive
	// binary).
	Sometimes
)

// Param is one keyword argument of an op.
type Param struct {
	Name     string
	Doc      string
	Required bool
	// Example is the value inserted by editor snippets, in LSP snippet
	// syntax (e.g. `"${1}"`).
	Example string
	// Values enumerates the accepted literal values, when closed.
	Values []string
	// AliasOf names the parameter this one is a back-compatible spelling of.
	AliasOf string
	// Universal marks the op-level kwargs (timeout, approved) the runtime
	// consumes itself and never forwards.
	Universal bool
}

// OpSpec describes one op.
type OpSpec struct {
	Name    string
	Class   Class
	Summary string
	Binding Binding
	// Params are the keyword arguments the op takes, including the
	// universal kwargs it honours, in documentation order.
	Params []Param
	// Positional names the one positional value the op takes ("RAW" for
	// $ json_parse), or "" when it takes keyword arguments only.
	Positional string
	// Mutates is the op's mutation class.
	Mutates Mutation
	// External reports an op that leaves the process (a connector, a
	// child process, another skill) and so is bounded by the default op
	// timeout.
	External bool
	// SkillArg names the kwarg naming the skill the op runs or inlines
	// (execute_skill's name=, inline's skill=), or "".
	SkillArg string
	// Dispatched reports an intrinsic that is also accepted as a bare
	// "$ name" dispatch, which the runtime forwards to the host's tool of
	// the same name ($ execute_skill).
	Dispatched bool
	// Sample is a complete skill using the op: the runnable example of
	// docs/language.md (its tests check that it lints clean).
	Sample string
}

// Param returns the named keyword argument of o.
func (o OpSpec) Param(name string) (Param, bool) {
	i := slices.IndexFunc(o.Params, func(p Param) bool { return p.Name == name })
	if i < 0 {
		return Param{}, false
	}
	return o.Params[i], true
}

// Kwargs returns the names of the keyword arguments of o, in order.
func (o OpSpec) Kwargs() []string {
	out := make([]string, len(o.Params))
	for i, p := range o.Params {
		out[i] = p.Name
	}
	return out
}

// SkillArgs returns the kwargs naming the skill the op runs or inlines:
// SkillArg and its aliases, in order. It is nil for other ops.
func (o OpSpec) SkillArgs() []string {
	if o.SkillArg == "" {
		return nil
	}
	out := []string{o.SkillArg}
	for _, p := range o.Params {
		if p.AliasOf == o.SkillArg {
			out = append(out, p.Name)
		}
	}
	return out
}

// clone returns a deep copy of o.
func (o OpSpec) clone() OpSpec {
	o.Params = slices.Clone(o.Params)
	for i := range o.Params {
		o.Params[i].Values = slices.Clone(o.Params[i].Values)
	}
	return o
}

// catalog is the built, read-only index of the vocabulary.
type catalog struct {
	ops      []OpSpec
	byName   map[string]int
	reserved map[string]bool
}

// theCatalog builds the catalog once; it is never modified afterwards
// (accessors hand out copies).
var theCatalog = sync.OnceValue(buildCatalog)

func buildCatalog() *catalog {
	c := &catalog{ops: ops(), byName: map[string]int{}, reserved: map[string]bool{}}
	for i, o := range c.ops {
		c.byName[o.Name] = i
	}
	for _, w := range reservedWords(c.ops) {
		c.reserved[w] = true
	}
	return c
}

// lookup returns a pointer into the catalog; callers must not modify it.
func lookup(name string) *OpSpec {
	c := theCatalog()
	i, ok := c.byName[name]
	if !ok {
		return nil
	}
	return &c.ops[i]
}

// Ops returns every op: the intrinsics, then the typed-contract ops, each
// in reference order.
func Ops() []OpSpec {
	src := theCatalog().ops
	out := make([]OpSpec, len(src))
	for i, o := range src {
		out[i] = o.clone()
	}
	return out
}

// Op returns the op called name.
func Op(name string) (OpSpec, bool) {
	o := lookup(name)
	if o == nil {
		return OpSpec{}, false
	}
	return o.clone(), true
}

// Spec returns the op called name as the catalog holds it, without the
// deep copy Op makes: for a caller that only reads it (the linter asks for
// each call name of every file). The caller must not change it or
// anything it points to.
func Spec(name string) (*OpSpec, bool) {
	o := lookup(name)
	return o, o != nil
}

// names returns the names of the ops of class c, in order.
func names(ops []OpSpec, c Class) []string {
	var out []string
	for _, o := range ops {
		if o.Class == c {
			out = append(out, o.Name)
		}
	}
	return out
}

// Intrinsics returns the names of the runtime-intrinsic function-call ops
// (the closed verb(...) list), in reference order.
func Intrinsics() []string { return names(theCatalog().ops, Intrinsic) }

// TypedContracts returns the names of the typed-contract "$ op"s, in
// reference order.
func TypedContracts() []string { return names(theCatalog().ops, TypedContract) }

// BareDispatches returns the names a bare "$ name" may use without a
// connector: the typed-contract ops, then the intrinsics that are also
// dispatched ($ execute_skill).
func BareDispatches() []string {
	out := TypedContracts()
	for _, o := range theCatalog().ops {
		if o.Class == Intrinsic && o.Dispatched {
			out = append(out, o.Name)
		}
	}
	return out
}

// IsIntrinsic reports whether name is a runtime-intrinsic function-call op.
func IsIntrinsic(name string) bool {
	o := lookup(name)
	return o != nil && o.Class == Intrinsic
}

// IsTypedContract reports whether a bare "$ name" is a typed-contract op.
func IsTypedContract(name string) bool {
	o := lookup(name)
	return o != nil && o.Class == TypedContract
}

// IsBareDispatch reports whether a bare "$ name" (no connector) is known to
// the language: a typed-contract op, or an intrinsic that is also
// dispatched ($ execute_skill). Any other bare name is an external tool.
func IsBareDispatch(name string) bool {
	o := lookup(name)
	return o != nil && (o.Class == TypedContract || o.Dispatched)
}

// Kwargs returns the keyword arguments of the op called name (see
// OpSpec.Kwargs), or nil for an unknown name.
func Kwargs(name string) []string {
	if o := lookup(name); o != nil {
		return o.Kwargs()
	}
	return nil
}

// ParamValues returns the accepted literal values of the kwarg param of
// the op called name, or nil when they are not enumerated.
func ParamValues(name, param string) []string {
	if o := lookup(name); o != nil {
		p, _ := o.Param(param)
		return slices.Clone(p.Values)
	}
	return nil
}

// Positional returns the name of the positional value the op called name
// takes ("RAW" for json_parse), or "".
func Positional(name string) string {
	if o := lookup(name); o != nil {
		return o.Positional
	}
	return ""
}

// SkillArgs returns the kwargs naming the skill the intrinsic op called
// name runs or inlines (see OpSpec.SkillArgs); nil for any other name.
func SkillArgs(name string) []string {
	o := lookup(name)
	if o == nil || o.Class != Intrinsic {
		return nil
	}
	return o.SkillArgs()
}

// IsExternal reports whether the op called name leaves the process; an
// unknown name (an external tool) is external.
func IsExternal(name string) bool {
	o := lookup(name)
	return o == nil || o.External
}

// Mutates returns the mutation class of the op called name; unknown names
// are Never (tools are classified by their connector, not the catalog).
func Mutates(name string) Mutation {
	if o := lookup(name); o != nil {
		return o.Mutates
	}
	return Never
}
