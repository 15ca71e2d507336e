package lang

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// TestOpsWellFormed checks every catalogued op is complete: a unique name,
// a class, a binding rule, a summary, documented parameters with snippet
// examples, aliases that point at a real parameter.
func TestOpsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range Ops() {
		if o.Name == "" || seen[o.Name] {
			t.Errorf("op %q: empty or duplicate name", o.Name)
		}
		seen[o.Name] = true
		if o.Class.String() == "" {
			t.Errorf("%s: no class", o.Name)
		}
		if !slices.Contains([]Binding{BindNone, BindOptional, BindRequired}, o.Binding) {
			t.Errorf("%s: binding %q is not an op binding rule", o.Name, o.Binding)
		}
		if o.Summary == "" || !strings.HasSuffix(o.Summary, ".") {
			t.Errorf("%s: summary %q should be one sentence", o.Name, o.Summary)
		}
		checkParams(t, o)
	}
}

func checkParams(t *testing.T, o OpSpec) {
	t.Helper()
	names := map[string]bool{}
	for _, p := range o.Params {
		if names[p.Name] {
			t.Errorf("%s: duplicate parameter %s", o.Name, p.Name)
		}
		names[p.Name] = true
		if p.Doc == "" || p.Example == "" {
			t.Errorf("%s.%s: missing doc or snippet example", o.Name, p.Name)
		}
		if p.Universal != IsUniversal(p.Name) {
			t.Errorf("%s.%s: Universal=%v but IsUniversal=%v", o.Name, p.Name, p.Universal, IsUniversal(p.Name))
		}
		if p.AliasOf != "" {
			if _, ok := o.Param(p.AliasOf); !ok {
				t.Errorf("%s.%s: alias of unknown parameter %s", o.Name, p.Name, p.AliasOf)
			}
		}
	}
	if o.SkillArg != "" && !names[o.SkillArg] {
		t.Errorf("%s: SkillArg %s is not a parameter", o.Name, o.SkillArg)
	}
	if o.Positional != "" && len(o.Params) > 0 {
		t.Errorf("%s: a positional op takes no keyword arguments", o.Name)
	}
}

// TestPredicatesAgreeWithOps checks the allocation-free predicates answer
// from the same data Ops returns.
func TestPredicatesAgreeWithOps(t *testing.T) {
	var intrinsics, typed []string
	for _, o := range Ops() {
		switch o.Class {
		case Intrinsic:
			intrinsics = append(intrinsics, o.Name)
		case TypedContract:
			typed = append(typed, o.Name)
		}
		if IsIntrinsic(o.Name) != (o.Class == Intrinsic) || IsTypedContract(o.Name) != (o.Class == TypedContract) {
			t.Errorf("%s: predicates disagree with class %v", o.Name, o.Class)
		}
		if IsBareDispatch(o.Name) != (o.Class == TypedContract || o.Dispatched) {
			t.Errorf("%s: IsBareDispatch = %v", o.Name, IsBareDispatch(o.Name))
		}
		if IsExternal(o.Name) != o.External || Mutates(o.Name) != o.Mutates {
			t.Errorf("%s: IsExternal/Mutates disagree with the spec", o.Name)
		}
	}
	if !slices.Equal(Intrinsics(), intrinsics) || !slices.Equal(TypedContracts(), typed) {
		t.Errorf("Intrinsics() = %v, TypedContracts() = %v; Ops has %v and %v", Intrinsics(), TypedContracts(), intrinsics, typed)
	}
	for _, name := range []string{"", "Emit", "github.search", "$set", "temperature"} {
		if IsIntrinsic(name) || IsTypedContract(name) || IsBareDispatch(name) {
			t.Errorf("%q classified as a language op", name)
		}
		if !IsExternal(name) || Mutates(name) != Never {
			t.Errorf("%q: an unknown name is an external, non-mutating tool", name)
		}
	}
}

// TestAccessorsReturnCopies checks callers cannot change the catalog.
func TestAccessorsReturnCopies(t *testing.T) {
	o, _ := Op("file_read")
	o.Params[1].Values[0] = "latin1"
	o.Params[0].Name = "changed"
	all := Ops()
	all[0].Name = "changed"
	again, _ := Op("file_read")
	if again.Params[0].Name != "path" || again.Params[1].Values[0] != "utf8" {
		t.Errorf("Op returned shared data: %+v", again.Params)
	}
	if Ops()[0].Name != "emit" {
		t.Errorf("Ops returned shared data")
	}
	if _, ok := Op("changed"); ok {
		t.Errorf("a renamed copy became an op")
	}
}

func TestKwargsAndSkillArgs(t *testing.T) {
	llm, _ := Op("llm")
	if got := llm.Kwargs(); !slices.Equal(got, []string{"prompt", "maxTokens", "model", "timeout", "approved"}) {
		t.Errorf("llm kwargs = %v", got)
	}
	es, _ := Op("execute_skill")
	if got := es.SkillArgs(); !slices.Equal(got, []string{"name", "skill_name"}) {
		t.Errorf("execute_skill skill args = %v", got)
	}
	in, _ := Op("inline")
	if got := in.SkillArgs(); !slices.Equal(got, []string{"skill"}) {
		t.Errorf("inline skill args = %v", got)
	}
	emit, _ := Op("emit")
	if emit.SkillArgs() != nil {
		t.Errorf("emit names no skill")
	}
	if _, ok := llm.Param("temperature"); ok {
		t.Errorf("llm has no temperature")
	}
}

func TestReserved(t *testing.T) {
	for _, w := range ReservedWords() {
		if !Reserved(w) {
			t.Errorf("Reserved(%q) = false", w)
		}
		if up := strings.ToUpper(w[:1]) + w[1:]; Reserved(up) {
			t.Errorf("Reserved(%q) = true; reserved words are case-sensitive", up)
		}
	}
	for _, op := range Intrinsics() {
		if !Reserved(op) {
			t.Errorf("intrinsic %s is not reserved", op)
		}
	}
	for _, w := range []string{"llm", "data_read", "$set", "NAME", ""} {
		if Reserved(w) {
			t.Errorf("Reserved(%q) = true", w)
		}
	}
}

// TestHeadersCoverEveryKind checks every header the parser knows is
// documented, in the parser's canonical order.
func TestHeadersCoverEveryKind(t *testing.T) {
	var got []ast.HeaderKind
	for _, h := range Headers() {
		got = append(got, h.Kind)
		if h.Summary == "" {
			t.Errorf("# %s: no summary", h.Kind)
		}
		if !h.Retired && !strings.HasPrefix(h.Example, "# "+h.Kind.String()+":") {
			t.Errorf("# %s: example %q does not use the header", h.Kind, h.Example)
		}
	}
	if want := ast.HeaderKinds(); !slices.Equal(got, want) {
		t.Errorf("documented headers %v, want %v", got, want)
	}
	if _, ok := Header(ast.HeaderUnknown); ok {
		t.Errorf("the unknown header kind is documented")
	}
	if h, ok := Header(ast.HeaderStatus); !ok || !slices.Contains(h.Values, "Approved") {
		t.Errorf("Header(Status) = %+v, %v", h, ok)
	}
}

func TestStatementsAndAmbient(t *testing.T) {
	for _, s := range Statements() {
		mutation := strings.HasPrefix(s.Label, "$")
		if mutation != (s.Binding == BindName) {
			t.Errorf("%s: binding %q", s.Label, s.Binding)
		}
		if !mutation && !Reserved(s.Label) {
			t.Errorf("keyword %s is not reserved", s.Label)
		}
	}
	for _, name := range []string{"NOW", "USER", "SESSION_CONTEXT", "TRIGGER_TYPE", "TRIGGER_PAYLOAD", "EVENT", "ERROR_CONTEXT"} {
		if AmbientDoc(name) == "" {
			t.Errorf("ambient %s is undocumented", name)
		}
	}
	if AmbientDoc("PROJECT") != "" {
		t.Errorf("PROJECT is not ambient")
	}
}

func BenchmarkIsIntrinsic(b *testing.B) {
	names := []string{"emit", "shell", "emitt", "llm", "github"}
	for i := 0; b.Loop(); i++ {
		IsIntrinsic(names[i%len(names)])
	}
}

func BenchmarkOp(b *testing.B) {
	for b.Loop() {
		if _, ok := Op("data_read"); !ok {
			b.Fatal("no data_read")
		}
	}
}

func TestNameAccessors(t *testing.T) {
	if got := Kwargs("skill_read"); !slices.Equal(got, []string{"name", "timeout", "approved"}) {
		t.Errorf("Kwargs(skill_read) = %v", got)
	}
	if Kwargs("nope") != nil || ParamValues("nope", "x") != nil || Positional("nope") != "" || SkillArgs("llm") != nil {
		t.Errorf("unknown names have no kwargs, values, positional or skill args")
	}
	if got := ParamValues("file_read", "encoding"); !slices.Equal(got, []string{"utf8", "base64"}) {
		t.Errorf("file_read encodings = %v", got)
	}
	if ParamValues("file_read", "path") != nil {
		t.Errorf("path= is not enumerated")
	}
	if Positional("json_parse") != "RAW" || Positional("llm") != "" {
		t.Errorf("Positional: json_parse %q, llm %q", Positional("json_parse"), Positional("llm"))
	}
	if got := SkillArgs("execute_skill"); !slices.Equal(got, []string{"name", "skill_name"}) {
		t.Errorf("SkillArgs(execute_skill) = %v", got)
	}
	if got := BareDispatches(); !slices.Equal(got, append(TypedContracts(), "execute_skill")) {
		t.Errorf("BareDispatches() = %v", got)
	}
}
