package lint

import (
	"sort"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/types"
)

// Typer answers the static type of a skill's values from what the
// deployment context declares: the outputSchema of the tools that bind
// them, followed through $set copies and foreach items (docs/types.md).
// A nil *types.Type is "unknown" and never yields a finding. A Typer is
// made per file and is not safe for concurrent use.
type Typer struct {
	info  *check.Info
	ctx   *Context
	refOf map[*ast.Subst]*check.Ref
	memo  map[*check.Binding]*types.Type
	busy  map[*check.Binding]bool
}

// NewTyper returns a Typer for a checked file in a context (nil means no
// context: every type is unknown).
func NewTyper(info *check.Info, ctx *Context) *Typer {
	return &Typer{info: info, ctx: ctx} // memo and busy are made on first use
}

func (t *Typer) ref(s *ast.Subst) *check.Ref {
	if t.refOf == nil {
		t.refOf = make(map[*ast.Subst]*check.Ref, len(t.info.Refs))
		for _, r := range t.info.Refs {
			t.refOf[r.Subst] = r
		}
	}
	return t.refOf[s]
}

// Ref returns the type of r's value after its first n path segments (n
// = len(r.Subst.Path) for the whole path), before any filter.
func (t *Typer) Ref(r *check.Ref, n int) *types.Type {
	if r == nil || len(r.Bindings) == 0 {
		return nil
	}
	ty := t.Bindings(r.Bindings)
	for _, seg := range r.Subst.Path[:min(n, len(r.Subst.Path))] {
		ty = Step(ty, seg)
		if ty == nil {
			return nil
		}
	}
	return ty
}

// Step returns the type one path segment selects from ty: an object's
// property, an array's item for an index; nil when unknown or missing.
func Step(ty *types.Type, seg *ast.PathSeg) *types.Type {
	if ty == nil {
		return nil
	}
	switch ty.Kind {
	case types.Object:
		if p, ok := ty.Field(seg.Name); ok {
			return p.Type
		}
	case types.Array:
		if seg.Index {
			return ty.Items
		}
	}
	return nil
}

// Bindings returns the type every one of bs gives its name, or nil when
// one is unknown or they differ.
func (t *Typer) Bindings(bs []*check.Binding) *types.Type {
	var out *types.Type
	for i, b := range bs {
		ty := t.Binding(b)
		if ty == nil {
			return nil
		}
		if i > 0 && ty.String() != out.String() {
			return nil
		}
		out = ty
	}
	return out
}

// Binding returns the type a binding gives its name.
func (t *Typer) Binding(b *check.Binding) *types.Type {
	if ty, ok := t.memo[b]; ok {
		return ty
	}
	if t.busy[b] { // a copy of a copy of itself
		return nil
	}
	if t.busy == nil {
		t.memo, t.busy = map[*check.Binding]*types.Type{}, map[*check.Binding]bool{}
	}
	t.busy[b] = true
	ty := t.binding(b)
	delete(t.busy, b)
	t.memo[b] = ty
	return ty
}

func (t *Typer) binding(b *check.Binding) *types.Type {
	switch b.Kind {
	case check.BindOp:
		if c, ok := b.Node.(*ast.CallStmt); ok && c.Fallback == nil && c.Name != nil {
			if c.Name.Name == "execute_skill" {
				return t.childType(c)
			}
			return builtinCallType(c.Name.Name)
		}
		d, ok := b.Node.(*ast.DispatchStmt)
		if ok && d.Fallback == nil && d.Connector == nil && d.Tool != nil && d.Tool.Name == "execute_skill" {
			return t.childType(d)
		}
		if ok && d.Fallback == nil && d.Connector == nil && d.Tool != nil && d.Tool.Name == "data_read" {
			return dataReadType()
		}
		if !ok || d.Fallback != nil || d.Connector == nil || d.Tool == nil || t.ctx == nil {
			return nil // a (fallback:) value may stand in for the result
		}
		c := t.ctx.Connectors[d.Connector.Name]
		if c == nil || c.Tools[d.Tool.Name] == nil {
			return nil
		}
		return types.FromSchema(c.Tools[d.Tool.Name].OutputSchema)
	case check.BindSet:
		return t.Expr(b.Value)
	case check.BindIter:
		fe, ok := b.Node.(*ast.ForeachStmt)
		if !ok {
			return nil
		}
		return ItemType(t.Expr(fe.List))
	}
	return nil
}

// Expr returns the type of a value expression that is a single unquoted
// ${X.path} without filters (which keeps X's structure); nil otherwise.
func (t *Typer) Expr(e ast.Expr) *types.Type {
	s := directSubst(e)
	if s == nil || len(s.Filters) > 0 {
		return nil
	}
	r := t.ref(s)
	if r == nil {
		return nil
	}
	return t.Ref(r, len(s.Path))
}

// directSubst returns the substitution that is the whole of e when e is
// ${X} or an unquoted word that is only ${X}.
func directSubst(e ast.Expr) *ast.Subst {
	switch e := e.(type) {
	case *ast.Subst:
		return e
	case *ast.BareWord:
		if e.Value != nil && len(e.Value.Parts) == 1 {
			s, _ := e.Value.Parts[0].(*ast.Subst)
			return s
		}
	}
	return nil
}

// ItemType returns the type of the items foreach walks in a value of type
// ty: an array's items, or the items of an object's "items" array (the
// envelope foreach unwraps); nil when unknown.
func ItemType(ty *types.Type) *types.Type {
	if ty == nil {
		return nil
	}
	switch ty.Kind {
	case types.Array:
		return ty.Items
	case types.Object:
		if p, ok := ty.Field("items"); ok && p.Type != nil && p.Type.Kind == types.Array {
			return p.Type.Items
		}
	}
	return nil
}

// The result types of built-in ops whose result shape the evaluator
// fixes (eval/calls.go, eval/dispatch.go): shell(...) and file_read(...)
// bind a string (stdout, the file's text); $ data_read binds the envelope
// {items, count, mode} whose items are contract.Record maps. A record is
// open (other fields are not reported): the adopter playbook lets a data
// substrate's records carry fields of its own (${S.name} in its skill
// discovery example).
var (
	stringType = &types.Type{Kind: types.String}
	// dataReadType is built on first use (issue 25: nothing a command does
	// not need runs at start-up), as Go values rather than by parsing its
	// JSON schema (the schema is kept in TestBuiltinResultTypes, which holds
	// the two together): a one-shot check spent half a per cent of its CPU
	// decoding it (decision AK7).
	dataReadType = sync.OnceValue(func() *types.Type {
		record := schemaObject(false,
			schemaProp("content", schemaString("the full content")),
			schemaProp("created_at", schemaString("RFC 3339")),
			schemaProp("detail", schemaString("the full content")),
			schemaProp("expires_at", &types.Type{Kind: types.String, Description: "RFC 3339, null for durable records", Nullable: true}),
			schemaProp("id", schemaString("")),
			schemaProp("metadata", schemaObject(false)),
			schemaProp("recipients", schemaArray("", schemaString(""))),
			schemaProp("score", &types.Type{Kind: types.Number, Description: "relevance when the query ranked results, else 0"}),
			schemaProp("summary", schemaString("first line of the content")),
			schemaProp("tags", schemaArray("", schemaString(""))),
		)
		return schemaObject(true,
			schemaRequired(schemaProp("count", &types.Type{Kind: types.Integer, Description: "number of records"})),
			schemaRequired(schemaProp("items", schemaArray("the matching records", record))),
			schemaRequired(schemaProp("mode", schemaString("the query mode"))),
		)
	})
)

// The constructors of the built-in result types. Props are given sorted
// by name, as types.FromSchema sorts them.

func schemaString(desc string) *types.Type { return &types.Type{Kind: types.String, Description: desc} }

func schemaArray(desc string, items *types.Type) *types.Type {
	return &types.Type{Kind: types.Array, Description: desc, Items: items}
}

func schemaObject(closed bool, props ...*types.Prop) *types.Type {
	return &types.Type{Kind: types.Object, Props: props, Closed: closed}
}

func schemaProp(name string, t *types.Type) *types.Prop { return &types.Prop{Name: name, Type: t} }

func schemaRequired(p *types.Prop) *types.Prop { p.Required = true; return p }

// builtinCallType is the result type of a built-in call, nil when the
// op's result has no fixed shape.
func builtinCallType(name string) *types.Type {
	switch name {
	case "shell", "file_read":
		return stringType
	}
	return nil
}

// runResultType is the JSON of a run result (eval.Result), what
// "execute_skill(...) -> R" binds besides the child's # Returns: values;
// built on first use, as dataReadType.
var runResultType = sync.OnceValue(func() *types.Type {
	stringList := func() *types.Type { return schemaArray("", schemaString("")) }
	array := func() *types.Type { return &types.Type{Kind: types.Array} }
	boolean := func() *types.Type { return &types.Type{Kind: types.Boolean} }
	return schemaObject(true,
		schemaProp("agent_delivery_receipts", array()),
		schemaProp("deadline_exceeded", boolean()),
		schemaProp("else_executed", stringList()),
		schemaProp("emissions", stringList()),
		schemaProp("errors", array()),
		schemaProp("fallbacks", array()),
		schemaProp("final_vars", &types.Type{Kind: types.Object, Description: "the child's # Returns: values"}),
		schemaProp("mechanical", boolean()),
		schemaProp("notices", stringList()),
		schemaProp("outputs", &types.Type{Kind: types.Object, Description: "the produced output", Closed: true, Props: []*types.Prop{
			schemaProp("files", stringList()),
			schemaProp("kinds", stringList()),
			schemaProp("text", schemaString("the canonical output")),
		}}),
		schemaProp("skill", schemaString("the child skill's name")),
		schemaProp("status", schemaString("ok or failed")),
		schemaProp("target_order", stringList()),
		schemaProp("transcript", array()),
		schemaProp("uncertain_effects", array()),
	)
})

// childType is the type of an execute_skill result: the run result's
// fields plus, when the child is found in the skill store, its # Returns:
// names at the top level (eval's childValue). The top level stays open:
// a name there that the child does not return is the finding of
// unexported-final-var-access, which knows the child; the nested fields
// (outputs.text) are checked here.
func (t *Typer) childType(s ast.Stmt) *types.Type {
	rt := runResultType()
	out := *rt
	out.Props = append([]*types.Prop(nil), rt.Props...)
	out.Closed = false
	_, name, ok := skillRefLit(s)
	if !ok || t.ctx == nil || !t.ctx.SkillsKnown || t.ctx.Skills == nil {
		return &out
	}
	info, found := t.ctx.Skills.Lookup(name)
	if !found {
		return &out
	}
	for _, r := range info.Returns {
		if _, taken := out.Field(r); !taken {
			out.Props = append(out.Props, &types.Prop{Name: r})
		}
	}
	sort.Slice(out.Props, func(i, j int) bool { return out.Props[i].Name < out.Props[j].Name })
	return &out
}
