package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/eval/contract"
)

func diagLines(ds ast.Diagnostics) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%v %s %s %s %s", d.Range, d.Severity, d.Rule, d.Target, d.Message))
	}
	return out
}

// TestCompileUnit checks the compiled unit against the separate calls it
// replaces, its cache (same content, same unit; changed content, a new
// one; Forget), and that environments with different lint options share
// the tree without sharing diagnostics.
func TestCompileUnit(t *testing.T) {
	dir := t.TempDir()
	src := "# Skill: u\n# Status: Draft\n# Classification: role=procedure invocation=direct effect_mode=enrich\n" +
		"run:\n    shell(argv=[\"rm\", \"-f\", \"x\"]) -> OUT\n    $ github.create_issue title=\"t\"\n    emit(text=\"${OUT} ${MISSING}\")\ndefault: run\n"
	path := filepath.Join(dir, "u.skill.md")
	writeFiles(t, dir, map[string]string{"u.skill.md": src, "skillscript.config.json": `{"lint": {"severity": {"undeclared-var": "info"}}}`})
	env := Load(dir, LoadOptions{Home: t.TempDir(), CacheUnits: true})
	u, err := env.CompileFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, info, want := env.Check(path, []byte(src))
	if got, wantL := fmt.Sprint(diagLines(u.Diags)), fmt.Sprint(diagLines(want)); got != wantL || !u.Linted {
		t.Errorf("Compile diagnostics\n%s\nwant (Check)\n%s", got, wantL)
	}
	if len(u.Info.Ops) != len(info.Ops) || u.Skill.Name != "u" || u.Skill.Status != "Draft" || u.Hash() == "" {
		t.Errorf("unit facts: %d ops (want %d), skill %+v, hash %q", len(u.Info.Ops), len(info.Ops), u.Skill, u.Hash())
	}
	fp := u.Footprint()
	if len(fp.Effects) != 2 || fp.Effects[0].Kind != effects.Shell || !fp.Effects[0].Mutating || fp.Effects[1].Kind != effects.Dispatch {
		t.Errorf("footprint %v", fp.Summary())
	}
	if c, ds := u.Classification(); c == nil || c.Role != "procedure" || len(ds) != 0 {
		t.Errorf("classification %v %v", c, ds)
	}
	again := env.Compile(path, []byte(src))
	if again != u {
		t.Error("the same content compiled twice: want the cached unit")
	}
	changed := env.Compile(path, []byte(src+"# a comment\n"))
	if changed == u || changed.Hash() == u.Hash() {
		t.Error("changed content: want a new unit")
	}
	env.Forget(path)
	fresh := env.Compile(path, []byte(src))
	if fresh == u {
		t.Error("after Forget: want a new unit")
	}
	// Another environment (default severities) shares the parse, not the
	// diagnostics: undeclared-var is an error there, info here.
	other := Load(t.TempDir(), LoadOptions{Home: t.TempDir(), CacheUnits: true})
	ou := other.Compile(path, []byte(src))
	if ou.File != fresh.File {
		t.Error("the same source in another environment was parsed again")
	}
	sev := func(ds ast.Diagnostics) ast.Severity {
		for _, d := range ds {
			if d.Rule == "undeclared-var" {
				return d.Severity
			}
		}
		return 0
	}
	if sev(ou.Diags) != ast.Error || sev(u.Diags) != ast.Info || sev(fresh.Diags) != ast.Info {
		t.Errorf("undeclared-var: %v in the default environment (want error), %v and %v with the override (want info)", sev(ou.Diags), sev(u.Diags), sev(fresh.Diags))
	}
	if _, err := env.CompileFile(filepath.Join(dir, "missing.skill.md")); !os.IsNotExist(err) {
		t.Errorf("Compile of a missing file: %v", err)
	}
	if p := Parse(path, []byte(src)); p.Linted || p.Diags != nil || p.File == nil {
		t.Errorf("Parse: linted %v, diags %v", p.Linted, p.Diags)
	}
	// Without CacheUnits nothing is kept: each Compile is a new unit, and
	// a new source is not added to the shared parse cache.
	plain := Load(dir, LoadOptions{Home: t.TempDir()})
	novel := []byte(src + "# novel\n")
	a, b := plain.Compile(path, novel), plain.Compile(path, novel)
	if a == b || a.File == b.File || parsed.get(path, a.Hash()) != nil {
		t.Error("an environment without CacheUnits kept a unit")
	}
	if got := fmt.Sprint(diagLines(a.Diags)); got != fmt.Sprint(diagLines(b.Diags)) {
		t.Errorf("two compiles differ: %s / %s", got, diagLines(b.Diags))
	}
}

// TestUnitCacheBounds checks that a cache keeps at most unitCacheSize
// units and unitCacheBytes of source, dropping the oldest first, and
// always keeps the newest.
func TestUnitCacheBounds(t *testing.T) {
	c := newUnitCache()
	for i := 0; i < unitCacheSize+10; i++ {
		c.put(&Unit{Path: fmt.Sprint(i), hash: "h", Src: []byte("x")})
	}
	if len(c.units) != unitCacheSize || c.get("0", "h") != nil || c.get(fmt.Sprint(unitCacheSize+9), "h") == nil {
		t.Errorf("%d units held; oldest kept %v", len(c.units), c.get("0", "h") != nil)
	}
	big := make([]byte, unitCacheBytes/3)
	for i := 0; i < 4; i++ {
		c.put(&Unit{Path: fmt.Sprint("big", i), hash: "h", Src: big})
	}
	if c.bytes > unitCacheBytes || c.get("big3", "h") == nil || c.get("big0", "h") != nil {
		t.Errorf("%d bytes held (limit %d)", c.bytes, unitCacheBytes)
	}
	huge := make([]byte, unitCacheBytes+1)
	c.put(&Unit{Path: "huge", hash: "h", Src: huge})
	if c.get("huge", "h") == nil || len(c.units) != 1 {
		t.Errorf("the newest unit must stay even alone over the limit: %d units", len(c.units))
	}
	c.forget("huge")
	if len(c.units) != 0 || c.bytes != 0 || len(c.order) != 0 {
		t.Errorf("after forget: %d units, %d bytes, order %v", len(c.units), c.bytes, c.order)
	}
}

// ForgetParsed drops the process-wide parse of a path (the language
// server calls it when the file changes on disk): the next Parse of the
// same text compiles a new unit.
func TestForgetParsed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.skill.md")
	src := []byte("# Skill: f\n# Status: Draft\n\nrun:\n    emit(text=\"x\")\n\ndefault: run\n")
	u := Parse(path, src)
	if Parse(path, src) != u {
		t.Fatal("the same text parsed twice: want the cached unit")
	}
	ForgetParsed(path)
	if Parse(path, src) == u {
		t.Error("after ForgetParsed: want a new unit")
	}
}

// TestUnitHashOnDemand checks that a unit compiled without any cache
// that could hold it leaves its hash for later (check never reads it),
// and that Hash then gives the content hash, as a cached unit's does.
func TestUnitHashOnDemand(t *testing.T) {
	dir := t.TempDir()
	src := []byte("# Skill: h\n# Status: Draft\nrun:\n    emit(text=\"hi\")\ndefault: run\n")
	path := filepath.Join(dir, "h.skill.md")
	u := Load(dir, LoadOptions{Home: t.TempDir()}).Compile(path, src)
	if u.hash != "" {
		t.Errorf("a one-shot compile hashed its source up front: %q", u.hash)
	}
	want := contract.ContentHashOf(src)
	if got := u.Hash(); got != want {
		t.Errorf("Hash() = %q, want %q", got, want)
	}
	cached := Load(dir, LoadOptions{Home: t.TempDir(), CacheUnits: true}).Compile(path, src)
	if cached.hash != want || cached.Hash() != want {
		t.Errorf("a cached unit's hash is %q / %q, want %q", cached.hash, cached.Hash(), want)
	}
}
