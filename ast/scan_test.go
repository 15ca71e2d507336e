package ast_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

// testdataSkills returns every *.skill.md under the repository's testdata.
func testdataSkills(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".skill.md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 300 {
		t.Fatalf("only %d testdata skills", len(files))
	}
	return files
}

// event is one call of a Scan callback.
type event struct {
	n     ast.Node
	k     ast.Kind
	enter bool
}

// refEvents computes what Scan must report for the kinds of want, from
// ast.Inspect: its enter and leave events, kept for the wanted nodes. The
// wanted nodes of the kinds in skip are entered but their subtrees are
// skipped, with no leave event.
func refEvents(root ast.Node, want, skip ast.Mask) []event {
	var out []event
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if k := ast.KindOf(top); want.Has(k) {
				out = append(out, event{top, k, false})
			}
			return true
		}
		k := ast.KindOf(n)
		if want.Has(k) {
			out = append(out, event{n, k, true})
			if skip.Has(k) {
				return false
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

func scanEvents(root ast.Node, want, skip ast.Mask) []event {
	var out []event
	ast.Scan(root, want, func(n ast.Node, k ast.Kind, enter bool) bool {
		out = append(out, event{n, k, enter})
		return !enter || !skip.Has(k)
	})
	return out
}

func sameEvents(got, want []event) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d events, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Errorf("event %d is {%T %d %v}, want {%T %d %v}", i, got[i].n, got[i].k, got[i].enter, want[i].n, want[i].k, want[i].enter)
		}
	}
	return nil
}

// TestScanOrder: on every testdata skill, Scan asked for every kind
// reports exactly ast.Inspect's enter and leave events, and Scan asked
// for some kinds reports the same events filtered, also when the callback
// skips the subtrees of some kinds (as Inspect's does by returning false);
// also from inner roots (every target and header on its own).
func TestScanOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	masks := []ast.Mask{
		ast.AllKinds,
		ast.Kinds(ast.KindSubst),
		ast.Kinds(ast.KindLit, ast.KindArg, ast.KindSetStmt, ast.KindVarDecl, ast.KindHeader),
		ast.Kinds(ast.KindSecretRef, ast.KindFallback, ast.KindCallStmt, ast.KindDispatchStmt, ast.KindTemplate),
		ast.Kinds(ast.KindIdent, ast.KindText),
		0,
	}
	for i := 0; i < 4; i++ {
		masks = append(masks, ast.Mask(rng.Uint64())&ast.AllKinds)
	}
	total := 0
	for _, p := range testdataSkills(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.Parse(p, src)
		for i, m := range masks {
			want := refEvents(f, m, 0)
			if err := sameEvents(scanEvents(f, m, 0), want); err != nil {
				t.Fatalf("%s, mask %x: %v", p, m, err)
			}
			total += len(want)
			skip := masks[(i+3)%len(masks)] // skip the subtrees of some kinds
			if err := sameEvents(scanEvents(f, m, skip), refEvents(f, m, skip)); err != nil {
				t.Fatalf("%s, mask %x, skipping %x: %v", p, m, skip, err)
			}
		}
		var roots []ast.Node
		for _, tg := range f.Targets {
			roots = append(roots, tg)
		}
		for _, h := range f.Headers {
			roots = append(roots, h)
		}
		for _, r := range roots {
			if err := sameEvents(scanEvents(r, ast.AllKinds, 0), refEvents(r, ast.AllKinds, 0)); err != nil {
				t.Fatalf("%s, %T at %d: %v", p, r, r.Pos(), err)
			}
		}
	}
	if total < 10000 {
		t.Fatalf("only %d events compared", total)
	}
}

// TestKindOf: every node type of the testdata has its own kind.
func TestKindOf(t *testing.T) {
	kindOf := map[string]ast.Kind{}
	for _, p := range testdataSkills(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.Parse(p, src)
		for n := range ast.All(f) {
			k := ast.KindOf(n)
			name := fmt.Sprintf("%T", n)
			if k == ast.KindNone {
				t.Fatalf("%s: %s has no kind", p, name)
			}
			if old, ok := kindOf[name]; ok && old != k {
				t.Fatalf("%s has kinds %d and %d", name, old, k)
			}
			kindOf[name] = k
		}
	}
	seen := map[ast.Kind]string{}
	for name, k := range kindOf {
		if other, ok := seen[k]; ok {
			t.Fatalf("%s and %s share kind %d", name, other, k)
		}
		seen[k] = name
		if !ast.AllKinds.Has(k) {
			t.Fatalf("AllKinds lacks %s", name)
		}
	}
	if len(kindOf) < 40 {
		t.Fatalf("the testdata shows only %d node types", len(kindOf))
	}
	if ast.KindOf(nil) != ast.KindNone || ast.AllKinds.Has(ast.KindNone) {
		t.Fatal("KindNone must stand for no node only")
	}
}

// TestScanContext keeps the statement around each substitution from the
// enter and leave events, as the lint rules do.
func TestScanContext(t *testing.T) {
	src := []byte("# Vars: A=1\n\nt:\n    $set X = \"${A}\"\n    if ${X} == \"1\":\n        emit(text=\"${X|trim}\")\n\ndefault: t\n")
	f, _ := syntax.Parse("t.skill.md", src)
	var stmts []ast.Node
	var got []string
	ast.Scan(f, ast.Kinds(ast.KindSetStmt, ast.KindIfStmt, ast.KindCallStmt, ast.KindSubst), func(n ast.Node, k ast.Kind, enter bool) bool {
		switch {
		case k == ast.KindSubst && enter:
			got = append(got, fmt.Sprintf("%s in %T", src[n.Pos().Offset():n.End().Offset()], stmts[len(stmts)-1]))
		case k == ast.KindSubst:
		case enter:
			stmts = append(stmts, n)
		default:
			stmts = stmts[:len(stmts)-1]
		}
		return true
	})
	want := "${A} in *ast.SetStmt, ${X} in *ast.IfStmt, ${X|trim} in *ast.CallStmt"
	if strings.Join(got, ", ") != want {
		t.Fatalf("got %s\nwant %s", strings.Join(got, ", "), want)
	}
	if len(stmts) != 0 {
		t.Fatalf("%d statements left open", len(stmts))
	}
}

// BenchmarkScan scans a large skill for what the lint rules subscribe to,
// against one ast.Inspect walk filtering the same kinds.
func BenchmarkScan(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# Vars: BASE=start\n\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&sb, "t%d:\n    $set A%d = \"value ${BASE}\"\n    emit(text=\"t: ${A%d|trim}\")\n    foreach I in [\"a\", \"b\"]:\n        emit(text=\"${I}\")\n\n", i, i, i)
	}
	f, _ := syntax.Parse("b.skill.md", []byte(sb.String()))
	want := ast.Kinds(ast.KindSubst, ast.KindSecretRef, ast.KindLit, ast.KindArg, ast.KindSetStmt, ast.KindCallStmt, ast.KindDispatchStmt, ast.KindFallback, ast.KindHeader, ast.KindTemplate, ast.KindVarDecl)
	b.Run("Scan", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			n := 0
			ast.Scan(f, want, func(ast.Node, ast.Kind, bool) bool { n++; return true })
		}
	})
	b.Run("Inspect", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			n := 0
			ast.Inspect(f, func(x ast.Node) bool {
				if x != nil && want.Has(ast.KindOf(x)) {
					n++
				}
				return true
			})
		}
	})
}

// FuzzScanOrder checks TestScanOrder's property on whatever the parser
// makes of arbitrary text, seeded with the testdata skills.
func FuzzScanOrder(f *testing.F) {
	for _, pattern := range []string{"../testdata/lint/*/*.skill.md", "../testdata/corpus/*/*.skill.md", "../testdata/corpus/adversarial/*/*.skill.md"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte("t:\n    emit(text=\"${A|default:\\\"${B|x:\\\\\\\"{{secret.K}}\\\\\\\"}\\\"}\")\n"))
	skip := ast.Kinds(ast.KindSubst, ast.KindArg, ast.KindIfStmt)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := syntax.Parse("fuzz.skill.md", src)
		for _, m := range []ast.Mask{ast.AllKinds, ast.Kinds(ast.KindSubst, ast.KindSecretRef, ast.KindLit, ast.KindArg, ast.KindSetStmt)} {
			if err := sameEvents(scanEvents(file, m, 0), refEvents(file, m, 0)); err != nil {
				t.Fatalf("mask %x: %v", m, err)
			}
			if err := sameEvents(scanEvents(file, m, skip), refEvents(file, m, skip)); err != nil {
				t.Fatalf("mask %x, skipping %x: %v", m, skip, err)
			}
		}
	})
}
