package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate fails when ast/walk_gen.go is not what astgen
// writes from the node structs: run go generate ./ast.
func TestGeneratedUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "ast")
	want, err := generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, output))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("ast/%s is stale: run go generate ./ast", output)
	}
}

// TestNewNodeIsWalked generates the traversals of a small package with a
// node type the walkers have never seen: its kind, its nil check, its
// children in eachChild and its scan method all appear without a line
// written by hand.
func TestNewNodeIsWalked(t *testing.T) {
	dir := t.TempDir()
	src := `package ast

type Node interface{ aNode() }
type Expr interface {
	Node
	exprNode()
}
type Ident struct{ Name string }
func (*Ident) aNode() {}
type Binding struct{ Name *Ident }
func (*Binding) aNode() {}
type Fallback struct{ Value Expr }
func (*Fallback) aNode() {}
type File struct{ Units []*UntilStmt }
func (*File) aNode() {}
type Target struct {
	Needs       []*Ident
	NeedsInBody []*Ident
}
func (*Target) aNode() {}

// UntilStmt is new.
type UntilStmt struct {
	Label    *Ident
	Cond     Expr
	Count    int
	Body     []Expr
	Bind     *Binding
	Fallback *Fallback
}
func (*UntilStmt) aNode() {}
`
	if err := os.WriteFile(filepath.Join(dir, "ast.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\tKindUntilStmt ",
		"case *UntilStmt:\n\t\treturn KindUntilStmt",
		"case *UntilStmt:\n\t\treturn n == nil",
		"case *UntilStmt:\n\t\tadd(n.Label)\n\t\tadd(n.Cond)\n\t\tfor _, c := range n.Body {\n\t\t\tadd(c)\n\t\t}\n\t\taddBindFallback(add, n.Bind, n.Fallback)\n",
		"func (s *scanner) scanUntilStmt(n *UntilStmt) {",
		"\ts.scanIdent(n.Label)\n\ts.node(n.Cond)\n\tfor _, c := range n.Body {\n\t\ts.node(c)\n\t}\n\ts.bindFallback(n.Bind, n.Fallback)\n\ts.leave(n, KindUntilStmt, e)",
		"if !inNeedsStmt(n, c) {",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("generated source lacks %q:\n%s", want, out)
		}
	}
	walks, _, _ := strings.Cut(string(out), "func (s *shifter) node")
	if strings.Contains(walks, "NeedsInBody") {
		t.Errorf("Target.NeedsInBody is walked; special says skip")
	}
}

// TestStaleSpecialFails checks that a special entry naming a field that
// no longer exists stops the generator.
func TestStaleSpecialFails(t *testing.T) {
	dir := t.TempDir()
	src := "package ast\n\ntype Node interface{ aNode() }\ntype File struct{}\n\nfunc (*File) aNode() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "ast.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := generate(dir)
	if err == nil || !strings.Contains(err.Error(), "Target.Needs") {
		t.Fatalf("generate = %v, want an error naming the stale entry Target.Needs", err)
	}
}
