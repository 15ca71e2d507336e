// Command astgen generates the traversals of package ast from its node
// structs: the node kinds and KindOf, isNil, the child walk behind Walk,
// Inspect, All and Children (eachChild), the scanner behind Scan, and the
// shifted copy behind Shifted (every field: positions moved, children
// copied, other values shared; a field type it does not know fails). A
// node type is a struct whose pointer has the aNode method; its children
// are its fields of a node type (*T, []*T) or of an interface that embeds
// Node (Node, Stmt, Expr, Cond, TextPart, and slices of them), in field
// order. The few fields walked differently are listed in special below.
//
// Run it with go generate ./ast (the directive is in ast/walk.go); it
// writes ast/walk_gen.go. TestGeneratedUpToDate fails when the checked-in
// file differs from what astgen writes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// output is the generated file's name inside the ast folder.
const output = "walk_gen.go"

// A rule says how the walkers treat one field (Type.Field) or one node
// type's children (Type).
type rule int

const (
	skip         rule = iota + 1 // not a child (a second view of nodes that are children elsewhere)
	notInNeeds                   // Target.Needs: ids that a needs: statement in the body does not also list
	fileMerged                   // File: the top-level nodes merged into source order (fileChildren)
	bindFallback                 // Bind and Fallback: visited as a pair in source order
)

// special lists the fields walked differently from their declaration.
// Every name must exist: astgen fails on a stale entry.
var special = map[string]rule{
	"File":               fileMerged,
	"Target.Needs":       notInNeeds,
	"Target.NeedsInBody": skip,
}

func main() {
	dir := flag.String("dir", ".", "the ast package folder")
	flag.Parse()
	src, err := generate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "astgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(*dir, output), src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "astgen:", err)
		os.Exit(1)
	}
}

// field is one child field of a node type.
type field struct {
	name  string
	elem  string // the node type (without *) or the interface
	iface bool   // elem is an interface embedding Node
	slice bool
	rule  rule
}

// node is one node type with its child fields.
type node struct {
	name     string
	children []field
	rule     rule
	copies   []copyField // every field, for the shifted copy
	memo     bool        // its copies may be shared between two fields of the tree
	// memoBy is the field (of a second view, rule skip) whose being
	// non-empty means shared nodes below: the copy of this node then
	// keeps a memo of the copies made
	memoBy string
}

// copyKind says what the shifted copy does with one field.
type copyKind int

const (
	keepField  copyKind = iota + 1 // a value without positions, shared
	posField                       // a Pos, moved
	rangeField                     // a Range (embedded or named), moved
	childField                     // a child node or slice of them, copied
)

// copyField is one field of a node type as the shifted copy treats it.
type copyField struct {
	name string
	kind copyKind
	ch   field // for childField
}

// generate reads the node structs of the package in dir and returns the
// formatted source of walk_gen.go.
func generate(dir string) ([]byte, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var files []*ast.File
	for _, name := range names {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") || base == output {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	nodes, err := collect(files)
	if err != nil {
		return nil, err
	}
	if len(nodes) > 63 {
		return nil, fmt.Errorf("%d node types do not fit the 64-bit Mask (at most 63)", len(nodes))
	}
	var b bytes.Buffer
	write(&b, nodes)
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated source: %w\n%s", err, b.Bytes())
	}
	return out, nil
}

// collect finds the node types (in declaration order, files sorted by
// name) and their child fields.
func collect(files []*ast.File) ([]node, error) {
	isNode := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "aNode" || len(fn.Recv.List) != 1 {
				continue
			}
			if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok {
					isNode[id.Name] = true
				}
			}
		}
	}
	structs := map[string]*ast.StructType{}
	basic := map[string]bool{} // the package's named types over a basic type
	var order []string
	ifaces := map[string]bool{"Node": true}
	embeds := map[string][]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				switch t := ts.Type.(type) {
				case *ast.StructType:
					if isNode[ts.Name.Name] {
						structs[ts.Name.Name] = t
						order = append(order, ts.Name.Name)
					}
				case *ast.Ident:
					basic[ts.Name.Name] = isBasic(t.Name)
				case *ast.InterfaceType:
					for _, m := range t.Methods.List {
						if id, ok := m.Type.(*ast.Ident); ok && len(m.Names) == 0 {
							embeds[ts.Name.Name] = append(embeds[ts.Name.Name], id.Name)
						}
					}
				}
			}
		}
	}
	// an interface is a node interface when it embeds one, transitively
	for changed := true; changed; {
		changed = false
		for name, es := range embeds {
			if !ifaces[name] && slices.ContainsFunc(es, func(e string) bool { return ifaces[e] }) {
				ifaces[name], changed = true, true
			}
		}
	}
	for name := range isNode {
		if structs[name] == nil {
			return nil, fmt.Errorf("*%s has aNode but %s is not a struct type of the package", name, name)
		}
	}
	used := map[string]bool{}
	memoTypes := map[string]bool{} // node types shared between two fields
	var nodes []node
	for _, name := range order {
		n := node{name: name, rule: special[name]}
		if n.rule != 0 {
			used[name] = true
		}
		for _, fl := range structs[name].Fields.List {
			if name != "File" {
				cfs, err := copyFields(name, fl, isNode, ifaces, basic)
				if err != nil {
					return nil, err
				}
				n.copies = append(n.copies, cfs...)
			}
			elem, iface, slice, ok := childType(fl.Type, isNode, ifaces)
			if !ok {
				continue
			}
			for _, id := range fl.Names {
				key := name + "." + id.Name
				r := special[key]
				if r != 0 {
					used[key] = true
				}
				if r == skip || r == notInNeeds {
					memoTypes[elem] = true
				}
				if r == skip {
					n.memoBy = id.Name
				}
				if r == skip {
					continue
				}
				if (id.Name == "Bind" && elem == "Binding" || id.Name == "Fallback" && elem == "Fallback") && !slice && hasPair(structs[name]) {
					r = bindFallback
				}
				n.children = append(n.children, field{name: id.Name, elem: elem, iface: iface, slice: slice, rule: r})
			}
		}
		nodes = append(nodes, n)
	}
	for i := range nodes {
		if memoTypes[nodes[i].name] {
			nodes[i].memo = true
		}
	}
	for key := range special {
		if !used[key] {
			return nil, fmt.Errorf("special names %s, which is not a node type or child field of package ast", key)
		}
	}
	return nodes, nil
}

// copyFields returns how the shifted copy treats the field fl of node
// type owner. A field of any other type (a struct holding positions the
// copy would not move) stops the generator.
func copyFields(owner string, fl *ast.Field, isNode, ifaces, basic map[string]bool) ([]copyField, error) {
	names := []string{}
	for _, id := range fl.Names {
		names = append(names, id.Name)
	}
	var kind copyKind
	var ch field
	if elem, iface, slice, ok := childType(fl.Type, isNode, ifaces); ok {
		kind, ch = childField, field{elem: elem, iface: iface, slice: slice}
	} else {
		switch t := fl.Type.(type) {
		case *ast.Ident:
			switch {
			case t.Name == "Pos":
				kind = posField
			case t.Name == "Range":
				kind = rangeField
				if len(names) == 0 {
					names = []string{"Range"}
				}
			case basic[t.Name] || isBasic(t.Name):
				kind = keepField
			}
		case *ast.ArrayType:
			if id, ok := t.Elt.(*ast.Ident); ok && t.Len == nil && isBasic(id.Name) {
				kind = keepField
			}
		case *ast.MapType:
			kind = keepField // values parsed from the text (test inputs), no positions
		}
	}
	if kind == 0 {
		return nil, fmt.Errorf("%s.%v: a field of type %s: the shifted copy knows no such field (add it to copyFields)",
			owner, names, types.ExprString(fl.Type))
	}
	out := make([]copyField, 0, len(names))
	for _, nm := range names {
		c := ch
		c.name = nm
		out = append(out, copyField{name: nm, kind: kind, ch: c})
	}
	return out, nil
}

// isBasic reports whether name is one of Go's basic types.
func isBasic(name string) bool {
	switch name {
	case "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
		"uint32", "uint64", "float32", "float64", "byte", "rune":
		return true
	}
	return false
}

// hasPair reports whether a struct has both Bind *Binding and Fallback *Fallback.
func hasPair(st *ast.StructType) bool {
	var bind, fb bool
	for _, fl := range st.Fields.List {
		star, ok := fl.Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		id, ok := star.X.(*ast.Ident)
		if !ok {
			continue
		}
		for _, n := range fl.Names {
			bind = bind || n.Name == "Bind" && id.Name == "Binding"
			fb = fb || n.Name == "Fallback" && id.Name == "Fallback"
		}
	}
	return bind && fb
}

// childType reports whether a field type holds children: *T or []*T for
// a node type T, I or []I for a node interface I.
func childType(e ast.Expr, isNode, ifaces map[string]bool) (elem string, iface, slice, ok bool) {
	if arr, isArr := e.(*ast.ArrayType); isArr && arr.Len == nil {
		slice = true
		e = arr.Elt
	}
	switch t := e.(type) {
	case *ast.StarExpr:
		if id, isID := t.X.(*ast.Ident); isID && isNode[id.Name] {
			return id.Name, false, slice, true
		}
	case *ast.Ident:
		if ifaces[t.Name] {
			return t.Name, true, slice, true
		}
	}
	return "", false, false, false
}

func write(b *bytes.Buffer, nodes []node) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("// Code generated by internal/tools/astgen from the node structs; DO NOT EDIT.\n\n")
	p("package ast\n\n")

	p("// The node kinds, one per node type, in declaration order.\nconst (\n\tKindNone Kind = iota\n")
	for _, n := range nodes {
		p("\tKind%s // *%s\n", n.name, n.name)
	}
	p("\tnumKinds\n)\n\n")

	p("// KindOf returns the kind of n (KindNone for nil or an unknown type).\nfunc KindOf(n Node) Kind {\n\tswitch n.(type) {\n")
	for _, n := range nodes {
		p("\tcase *%s:\n\t\treturn Kind%s\n", n.name, n.name)
	}
	p("\t}\n\treturn KindNone\n}\n\n")

	p("// isNil reports whether n is nil or a typed nil pointer.\nfunc isNil(n Node) bool {\n\tswitch n := n.(type) {\n\tcase nil:\n\t\treturn true\n")
	for _, n := range nodes {
		p("\tcase *%s:\n\t\treturn n == nil\n", n.name)
	}
	p("\t}\n\treturn false\n}\n\n")

	p(`// eachChild calls f for each direct child of n in source order, as
// Children lists them, until f returns false; it reports whether f never
// returned false. Unlike Children it allocates nothing (except for a
// File, whose top-level nodes are merged into source order first), so
// Walk, Inspect and All cost no slice per node.
func eachChild(n Node, f func(Node) bool) bool {
	ok := true
	add := func(c Node) {
		if ok && !isNil(c) {
			ok = f(c)
		}
	}
	switch n := n.(type) {
`)
	for _, n := range nodes {
		if n.rule == fileMerged {
			p("\tcase *%s:\n\t\tfor _, c := range fileChildren(n) {\n\t\t\tif !f(c) {\n\t\t\t\treturn false\n\t\t\t}\n\t\t}\n\t\treturn true\n", n.name)
			continue
		}
		if len(n.children) == 0 {
			continue
		}
		p("\tcase *%s:\n", n.name)
		for _, c := range n.children {
			switch {
			case c.rule == bindFallback && c.name == "Bind":
				p("\t\taddBindFallback(add, n.Bind, n.Fallback)\n")
			case c.rule == bindFallback:
			case c.rule == notInNeeds:
				p("\t\tfor _, c := range n.%s {\n\t\t\tif !inNeedsStmt(n, c) {\n\t\t\t\tadd(c)\n\t\t\t}\n\t\t}\n", c.name)
			case c.slice:
				p("\t\tfor _, c := range n.%s {\n\t\t\tadd(c)\n\t\t}\n", c.name)
			default:
				p("\t\tadd(n.%s)\n", c.name)
			}
		}
	}
	p("\t}\n\treturn ok\n}\n\n")

	p("// node visits n and its subtree; nil and typed-nil nodes are skipped.\nfunc (s *scanner) node(n Node) {\n\tswitch n := n.(type) {\n")
	for _, n := range nodes {
		p("\tcase *%s:\n\t\ts.scan%s(n)\n", n.name, n.name)
	}
	p("\t}\n}\n")
	for _, n := range nodes {
		p("\nfunc (s *scanner) scan%s(n *%s) {\n\tif n == nil {\n\t\treturn\n\t}\n", n.name, n.name)
		if len(n.children) == 0 && n.rule != fileMerged {
			p("\ts.leaf(n, Kind%s)\n}\n", n.name)
			continue
		}
		p("\te, skip := s.enter(n, Kind%s)\n\tif skip {\n\t\treturn\n\t}\n", n.name)
		if n.rule == fileMerged {
			p("\tfor _, c := range fileChildren(n) {\n\t\ts.node(c)\n\t}\n")
		} else {
			for _, c := range n.children {
				visit := "s.scan" + c.elem
				if c.iface {
					visit = "s.node"
				}
				switch {
				case c.rule == bindFallback && c.name == "Bind":
					p("\ts.bindFallback(n.Bind, n.Fallback)\n")
				case c.rule == bindFallback:
				case c.rule == notInNeeds:
					p("\tfor _, c := range n.%s {\n\t\tif !inNeedsStmt(n, c) {\n\t\t\t%s(c)\n\t\t}\n\t}\n", c.name, visit)
				case c.slice:
					p("\tfor _, c := range n.%s {\n\t\t%s(c)\n\t}\n", c.name, visit)
				default:
					p("\t%s(n.%s)\n", visit, c.name)
				}
			}
		}
		p("\ts.leave(n, Kind%s, e)\n}\n", n.name)
	}
	writeShift(p, nodes)
}

// writeShift writes the shifted copy: shifter.node and one copy method
// per node type but File.
func writeShift(p func(string, ...any), nodes []node) {
	p(`
// node returns a copy of the subtree n with every position moved by
// s.delta (see Shifted); nil stays nil.
func (s *shifter) node(n Node) Node {
	switch n := n.(type) {
`)
	for _, n := range nodes {
		if n.name == "File" {
			continue
		}
		p("\tcase *%s:\n\t\treturn s.copy%s(n)\n", n.name, n.name)
	}
	p("\t}\n\treturn n\n}\n")
	for _, n := range nodes {
		if n.name == "File" {
			continue
		}
		p("\nfunc (s *shifter) copy%s(n *%s) *%s {\n\tif n == nil {\n\t\treturn nil\n\t}\n", n.name, n.name, n.name)
		if n.memo {
			p("\tif c, ok := s.memo[n]; ok {\n\t\treturn c.(*%s)\n\t}\n", n.name)
		}
		if n.memoBy != "" {
			p("\tif len(n.%s) > 0 && s.memo == nil {\n\t\ts.memo = map[Node]Node{}\n\t\tdefer func() { s.memo = nil }()\n\t}\n", n.memoBy)
		}
		p("\tcp := *n\n")
		if n.memo {
			p("\tif s.memo != nil {\n\t\ts.memo[n] = &cp\n\t}\n")
		}
		for _, c := range n.copies {
			switch c.kind {
			case posField:
				p("\tcp.%s = s.pos(cp.%s)\n", c.name, c.name)
			case rangeField:
				p("\tcp.%s = s.rng(cp.%s)\n", c.name, c.name)
			case childField:
				elemType := "*" + c.ch.elem
				copyOf := "s.copy" + c.ch.elem + "(%s)"
				if c.ch.iface {
					elemType = c.ch.elem
					copyOf = "s.node(%s).(" + c.ch.elem + ")"
				}
				if c.ch.slice {
					p("\tif n.%s != nil {\n\t\tcp.%s = make([]%s, len(n.%s))\n\t\tfor i, c := range n.%s {\n", c.name, c.name, elemType, c.name, c.name)
					if c.ch.iface {
						p("\t\t\tif c != nil {\n\t\t\t\tcp.%s[i] = %s\n\t\t\t}\n", c.name, fmt.Sprintf(copyOf, "c"))
					} else {
						p("\t\t\tcp.%s[i] = %s\n", c.name, fmt.Sprintf(copyOf, "c"))
					}
					p("\t\t}\n\t}\n")
				} else if c.ch.iface {
					p("\tif n.%s != nil {\n\t\tcp.%s = %s\n\t}\n", c.name, c.name, fmt.Sprintf(copyOf, "n."+c.name))
				} else {
					p("\tcp.%s = %s\n", c.name, fmt.Sprintf(copyOf, "n."+c.name))
				}
			}
		}
		p("\treturn &cp\n}\n")
	}
}
