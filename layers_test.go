// Package skillc_test holds the repository-wide tests: the import
// directions between the project's layers (TestLayers) and the layer
// drawing of CONTRIBUTING.md generated from the same table
// (TestLayersDrawing).
package skillc_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/skillscript/skillc"

var update = flag.Bool("update", false, "rewrite the generated layer drawing in CONTRIBUTING.md")

// A layer is a set of folders whose packages may import each other and
// any package of a lower layer, never one of a higher layer.
type layer struct {
	name  string
	dirs  []string // folders relative to the module root; the longest matching folder wins
	about string
}

// layers is the one table of the project's layers, bottom-up. TestLayers
// checks every non-test import against it and TestLayersDrawing draws it
// into CONTRIBUTING.md. A new package must fall under one of the folders.
var layers = []layer{
	{"ast", []string{"ast"},
		"the tree with byte ranges and ast.Diagnostic, the one problem type"},
	{"leaf", []string{"internal/leaf"},
		"shared leaves: language catalog, shell tokenizer, configuration, connectors.json, arenas, edit distance, process groups"},
	{"language", []string{"syntax", "check"},
		"parser and formatter; facts (bindings, references, ops, target graph)"},
	{"evaluator", []string{"eval"},
		"the evaluator, its contracts, values and filters, and the substrates behind the contracts"},
	{"analysis", []string{"lint", "internal/agentskills", "internal/classification", "internal/approval", "internal/baseline"},
		"lint rules and engine, SKILL.md parsing, classification, approval keys and signatures, baselines"},
	{"workspace", []string{"internal/workspace", "eval/host", "eval/skilltest"},
		"one workspace for the CLI, the language server and the host; a runner wired for a host process; the skill test runner"},
	{"format", []string{"internal/format"},
		"output formats: diagnostic renderers (human, JSON, SARIF, CI annotations), semantic highlighting"},
	{"editor", []string{"lsp"},
		"the language server"},
	{"host", []string{"internal/host"},
		"the runtime host: MCP server, traces, triggers, registry, Agent Skills runtime, gateway, dashboard, HTTP guard"},
	{"debugger", []string{"internal/dap"},
		"the Debug Adapter Protocol server (skillc dap): breakpoints and stepping over the evaluator's hook, replay of recorded traces"},
	{"cmd", []string{"cmd", "internal/skillcli", "internal/hostcli"},
		"the skillc and skillc-host commands: the CLI both share, the runtime host's commands (skillc-host only)"},
}

// side holds the folders outside the layering: test support, imported
// only by tests, and developer tools, imported by nothing.
var side = []layer{
	{"testsupport", []string{"internal/testsupport"}, "test support: corpora, want markers, throwaway Postgres, benchmark inputs (imported by tests only)"},
	{"tools", []string{"internal/tools"}, "developer mains: release, test report, generators (imported by nothing)"},
}

// pkg is one package of the module as go/build reads it for this platform.
type pkg struct {
	rel     string // path relative to the module root
	layer   string
	rank    int // index in layers; -1 for the side folders
	imports map[string][]string
	tests   map[string][]string
}

// loadPackages reads every package of the module below the working
// directory (the module root).
func loadPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	out := map[string]*pkg{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		bp, err := build.Default.ImportDir(path, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		rel := filepath.ToSlash(path)
		if rel == "." {
			return nil // this package: the repository-wide tests
		}
		p := &pkg{rel: rel, imports: own(bp.ImportPos, bp.Imports), tests: own(bp.TestImportPos, bp.TestImports)}
		for k, v := range own(bp.XTestImportPos, bp.XTestImports) {
			p.tests[k] = append(p.tests[k], v...)
		}
		if len(bp.GoFiles)+len(bp.CgoFiles) == 0 {
			p.imports = map[string][]string{} // a package of tests only
		}
		p.layer, p.rank = layerOf(rel)
		out[rel] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// own keeps the imports of the module, relative to its root, each with the
// positions that import it.
func own(pos map[string][]token.Position, imports []string) map[string][]string {
	out := map[string][]string{}
	for _, imp := range imports {
		rel, ok := strings.CutPrefix(imp, module+"/")
		if !ok {
			continue
		}
		for _, p := range pos[imp] {
			out[rel] = append(out[rel], fmt.Sprintf("%s:%d", filepath.ToSlash(p.Filename), p.Line))
		}
		if len(pos[imp]) == 0 {
			out[rel] = append(out[rel], "?")
		}
	}
	return out
}

// layerOf names the layer of a package by its longest matching folder;
// rank is the layer's index, -1 for a side folder, -2 for none.
func layerOf(rel string) (name string, rank int) {
	best := -1
	name, rank = "", -2
	match := func(l layer, r int) {
		for _, d := range l.dirs {
			if (rel == d || strings.HasPrefix(rel, d+"/")) && len(d) > best {
				best, name, rank = len(d), l.name, r
			}
		}
	}
	for i, l := range layers {
		match(l, i)
	}
	for _, l := range side {
		match(l, -1)
	}
	return name, rank
}

// TestLayers asserts the import directions of the table: a package
// imports only its own layer and the layers below it (so the core never
// imports the host, the host never imports cmd, and the leaves import
// nothing of ours above them); test support is imported by tests only and
// the developer tools by nothing; the evaluator links no host code.
func TestLayers(t *testing.T) {
	pkgs := loadPackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("found %d packages: run the test from the module root", len(pkgs))
	}
	for _, problem := range checkLayers(pkgs) {
		t.Error(problem)
	}
	t.Logf("package eval links %d packages of ours: %s", len(closure(pkgs, "eval")), strings.Join(closure(pkgs, "eval"), " "))
}

// TestLayersCatchesViolations feeds checkLayers a made-up tree with one
// violation of each kind.
func TestLayersCatchesViolations(t *testing.T) {
	mk := func(rel string, imports ...string) *pkg {
		p := &pkg{rel: rel, imports: map[string][]string{}, tests: map[string][]string{}}
		for _, imp := range imports {
			p.imports[imp] = []string{rel + "/x.go:3"}
		}
		p.layer, p.rank = layerOf(rel)
		return p
	}
	pkgs := map[string]*pkg{}
	for _, p := range []*pkg{
		mk("ast"),
		mk("internal/leaf/lang", "ast", "lint"), // a leaf imports a layer above it
		mk("lint", "ast", "internal/testsupport/testcorpus"), // test support outside a test
		mk("check", "internal/host/trace"),                   // the core imports the host
		mk("eval", "check"),                                  // links the host through check
		mk("internal/host/trace", "cmd/skillc"),              // the host imports cmd
		mk("internal/testsupport/testcorpus"),
		mk("cmd/skillc", "internal/tools/release"), // a developer tool imported
		mk("internal/tools/release"),
		mk("newpkg"), // in no layer
	} {
		pkgs[p.rel] = p
	}
	got := strings.Join(checkLayers(pkgs), "\n")
	for _, want := range []string{
		"internal/leaf/lang/x.go:3: internal/leaf/lang (layer leaf) imports lint (layer analysis, higher)",
		"lint/x.go:3: lint imports the test support package internal/testsupport/testcorpus outside a test",
		"check/x.go:3: check (layer language) imports internal/host/trace (layer host, higher)",
		"internal/host/trace/x.go:3: internal/host/trace (layer host) imports cmd/skillc (layer cmd, higher)",
		"cmd/skillc/x.go:3: cmd/skillc imports the developer tool internal/tools/release",
		"package newpkg is in no layer",
		"package eval links internal/host/trace (layer host)",
		"package eval links cmd/skillc (layer cmd)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("checkLayers did not report %q; it reported:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != 9 {
		t.Errorf("checkLayers reported %d problems, want 9:\n%s", n, got)
	}
}

// checkLayers returns one message per import that breaks the table.
func checkLayers(pkgs map[string]*pkg) []string {
	var problems []string
	for _, rel := range sortedKeys(pkgs) {
		p := pkgs[rel]
		if p.rank == -2 {
			problems = append(problems, fmt.Sprintf("package %s is in no layer: add its folder to the table in layers_test.go (then go test . -run TestLayersDrawing -update)", rel))
			continue
		}
		for _, imp := range sortedKeys(p.imports) {
			q, ok := pkgs[imp]
			if !ok {
				continue // a package of another platform's build
			}
			where := p.imports[imp][0]
			switch {
			case q.layer == "tools":
				problems = append(problems, fmt.Sprintf("%s: %s imports the developer tool %s", where, rel, imp))
			case q.layer == "testsupport" && p.layer != "testsupport" && p.layer != "tools":
				problems = append(problems, fmt.Sprintf("%s: %s imports the test support package %s outside a test", where, rel, imp))
			case p.rank >= 0 && q.rank > p.rank:
				problems = append(problems, fmt.Sprintf("%s: %s (layer %s) imports %s (layer %s, higher): imports point down only", where, rel, p.layer, imp, q.layer))
			}
		}
		for _, imp := range sortedKeys(p.tests) {
			if q, ok := pkgs[imp]; ok && q.layer == "tools" {
				problems = append(problems, fmt.Sprintf("%s: a test of %s imports the developer tool %s", p.tests[imp][0], rel, imp))
			}
		}
	}
	// The evaluator links no host code: everything package eval links
	// lies in the evaluator's layer or below it.
	if _, ok := pkgs["eval"]; ok {
		evalRank := rankOf("evaluator")
		for _, d := range closure(pkgs, "eval") {
			if q := pkgs[d]; q.rank > evalRank || q.rank < 0 {
				problems = append(problems, fmt.Sprintf("package eval links %s (layer %s)", d, q.layer))
			}
		}
	}
	return problems
}

// closure lists the packages of ours that rel links (non-test imports,
// transitively), sorted, without rel itself.
func closure(pkgs map[string]*pkg, rel string) []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(r string) {
		p, ok := pkgs[r]
		if !ok {
			return
		}
		for imp := range p.imports {
			if !seen[imp] {
				seen[imp] = true
				visit(imp)
			}
		}
	}
	visit(rel)
	return sortedKeys(seen)
}

func rankOf(name string) int {
	for i, l := range layers {
		if l.name == name {
			return i
		}
	}
	panic("no layer " + name)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

const (
	drawingBegin = "<!-- layers:begin (generated from the table in layers_test.go: go test . -run TestLayersDrawing -update) -->\n"
	drawingEnd   = "<!-- layers:end -->\n"
)

// TestLayersDrawing checks that the layer drawing in CONTRIBUTING.md is the
// one the table and the packages on disk give; -update rewrites it.
func TestLayersDrawing(t *testing.T) {
	want := drawing(loadPackages(t))
	doc, err := os.ReadFile("CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(doc, []byte(drawingBegin))
	j := bytes.Index(doc, []byte(drawingEnd))
	if i < 0 || j < i {
		t.Fatalf("CONTRIBUTING.md: no %q ... %q section", strings.TrimSpace(drawingBegin), strings.TrimSpace(drawingEnd))
	}
	got := string(doc[i+len(drawingBegin) : j])
	if got == want {
		return
	}
	if *update {
		out := slices.Concat(doc[:i+len(drawingBegin)], []byte(want), doc[j:])
		if err := os.WriteFile("CONTRIBUTING.md", out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("CONTRIBUTING.md: the layer drawing is stale; run go test . -run TestLayersDrawing -update\n--- got\n%s\n--- want\n%s", got, want)
}

// drawing renders the layers top-down (imports point down) with the
// packages each holds, then the side folders.
func drawing(pkgs map[string]*pkg) string {
	var b strings.Builder
	b.WriteString("```\nimports point down; a layer may import its own layer and those below\n\n")
	width := 0
	for _, l := range slices.Concat(layers, side) {
		width = max(width, len(l.name))
	}
	for i := len(layers) - 1; i >= 0; i-- {
		l := layers[i]
		mark := "├─"
		switch i {
		case len(layers) - 1:
			mark = "┌─"
		case 0:
			mark = "└─"
		}
		writeLayer(&b, pkgs, l, mark, width, i > 0)
	}
	b.WriteString("\noutside the layers:\n")
	for _, l := range side {
		writeLayer(&b, pkgs, l, "  ", width, false)
	}
	b.WriteString("```\n\n")
	for i := len(layers) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "- **%s** — %s.\n", layers[i].name, layers[i].about)
	}
	for _, l := range side {
		fmt.Fprintf(&b, "- **%s** — %s.\n", l.name, l.about)
	}
	return b.String()
}

// writeLayer writes one layer's line: its name and its packages grouped
// by folder, wrapped under the name.
func writeLayer(b *strings.Builder, pkgs map[string]*pkg, l layer, mark string, width int, more bool) {
	var groups []string
	for _, d := range l.dirs {
		var self bool
		var subs []string
		for _, rel := range sortedKeys(pkgs) {
			p := pkgs[rel]
			if p.layer != l.name || strings.Contains(rel, "/internal/") {
				continue // a nested internal package is drawn as part of its parent
			}
			if rel == d {
				self = true
			} else if sub, ok := strings.CutPrefix(rel, d+"/"); ok {
				subs = append(subs, sub)
			}
		}
		if self {
			groups = append(groups, d)
		}
		switch len(subs) {
		case 0:
		case 1:
			groups = append(groups, d+"/"+subs[0])
		default:
			groups = append(groups, d+"/{"+strings.Join(subs, ", ")+"}")
		}
	}
	text := strings.Join(mergeSiblings(groups), ", ")
	prefix := fmt.Sprintf("%s %-*s  ", mark, width, l.name)
	indent := strings.Repeat(" ", len([]rune(prefix)))
	if more {
		indent = "│" + indent[1:]
	}
	line := prefix
	for _, word := range strings.SplitAfter(text, " ") {
		if len([]rune(line))+len(word) > 78 && strings.TrimSpace(line) != strings.TrimSpace(prefix) {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = indent
		}
		line += word
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
}

// mergeSiblings joins single packages of one folder: internal/a,
// internal/b become internal/{a, b}.
func mergeSiblings(groups []string) []string {
	var out []string
	at := map[string]int{} // folder -> index in out
	kids := map[string][]string{}
	for _, g := range groups {
		dir, base := filepath.ToSlash(filepath.Dir(g)), filepath.Base(g)
		if strings.Contains(g, "{") || dir == "." {
			out = append(out, g)
			continue
		}
		if _, ok := at[dir]; !ok {
			at[dir] = len(out)
			out = append(out, "")
		}
		kids[dir] = append(kids[dir], base)
	}
	for dir, i := range at {
		if len(kids[dir]) == 1 {
			out[i] = dir + "/" + kids[dir][0]
		} else {
			out[i] = dir + "/{" + strings.Join(kids[dir], ", ") + "}"
		}
	}
	return out
}
