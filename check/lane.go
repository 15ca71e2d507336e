package check

import (
	"maps"
	"slices"

	"github.com/skillscript/skillc/ast"
)

// Lane computes the facts of target t of f against the facts of the rest
// of the file given by base: the language server's local lane (decision
// LT1). f is the file base was computed over with one target, old,
// replaced by t; the other targets may be stale copies (only their names
// and positions are current) and are not gone through. The result holds
// the ops and references of t only; its skill scope holds base's
// bindings with old's replaced by t's, its Binds base's with old's
// replaced in place (source order kept); the header facts are base's and
// Graph is empty. It is meant for rules that read of the other targets
// only what they bind (names, kinds, scopes), under the guard that t
// binds what old bound (lint's interface of a target): a binding of
// another target keeps base's nodes, which may be at base's offsets.
// base is never changed.
func Lane(f *ast.File, t, old *ast.Target, base *Info) *Info {
	info := &Info{
		File:       f,
		Targets:    maps.Clone(base.Targets),
		Declared:   base.Declared,
		Secrets:    base.Secrets,
		Returns:    base.Returns,
		Status:     base.Status,
		Autonomous: base.Autonomous,
		SkillType:  base.SkillType,
	}
	if info.Targets == nil {
		info.Targets = map[string]*ast.Target{}
	}
	for name, tg := range info.Targets {
		if tg == old {
			info.Targets[name] = t
		}
	}
	if len(base.Dups) > 0 {
		info.Dups = slices.Clone(base.Dups)
		for i, d := range info.Dups {
			if d == old {
				info.Dups[i] = t
			}
		}
	}
	b := &builder{info: info}
	info.Root = b.laneRoot(f, base, old)
	b.target(t)
	for _, r := range info.Refs {
		b.resolve(r)
	}
	// base's bindings with old's replaced by t's, where old's were
	mine := info.Binds
	i := slices.IndexFunc(base.Binds, func(bd *Binding) bool { return bd.Target == old })
	j := i
	if i < 0 {
		// old bound nothing: t's go before the first binding of a later
		// target (base's offsets: old and the targets after it are base's)
		i = slices.IndexFunc(base.Binds, func(bd *Binding) bool {
			return bd.Target != nil && bd.Target.Pos() >= old.End()
		})
		if i < 0 {
			i = len(base.Binds)
		}
		j = i
	} else {
		for j < len(base.Binds) && base.Binds[j].Target == old {
			j++
		}
	}
	all := make([]*Binding, 0, len(base.Binds)-(j-i)+len(mine))
	all = append(append(append(all, base.Binds[:i]...), mine...), base.Binds[j:]...)
	info.Binds = all
	return info
}

// laneRoot returns a copy of base's skill scope without the bindings old
// made there; the builder copies a name's list before it adds to it (the
// lists are base's).
func (b *builder) laneRoot(f *ast.File, base *Info, old *ast.Target) *Scope {
	br := base.Root
	sc := &Scope{Kind: ScopeFile, Node: f}
	if br == nil {
		return sc
	}
	drop := func(bs []*Binding) []*Binding {
		return slices.Clip(slices.DeleteFunc(slices.Clone(bs), func(bd *Binding) bool { return bd.Target == old }))
	}
	names := map[string]bool{}
	for _, bd := range base.Binds {
		if bd.Target == old {
			names[bd.Name] = true
		}
	}
	if br.many != nil {
		sc.many = maps.Clone(br.many)
		for n := range names {
			if bs := sc.many[n]; bs != nil {
				if kept := drop(*bs); len(kept) > 0 {
					nb := new([]*Binding)
					*nb = kept
					sc.many[n] = nb
				} else {
					delete(sc.many, n)
				}
			}
		}
		b.cow, b.owned = sc, map[string]bool{}
		return sc
	}
	sc.few = make([]scopeName, 0, len(br.few)+1)
	for _, n := range br.few {
		bs := slices.Clip(n.binds)
		if names[n.name] {
			if bs = drop(bs); len(bs) == 0 {
				continue
			}
		}
		sc.few = append(sc.few, scopeName{name: n.name, binds: bs})
	}
	return sc
}
