package ast_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

// TestShiftedMatchesParse parses real skills as they are and behind three
// blank lines: the shifted copies of the first parse's top-level nodes
// equal the second parse's, the originals are untouched, and a target's
// Needs share their identifiers with its needs: statements as parsed.
func TestShiftedMatchesParse(t *testing.T) {
	var paths []string
	for _, root := range []string{"../testdata/examples", "../testdata/corpus", "../testdata/lint", "../testdata/syntax"} {
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".skill") || strings.HasSuffix(p, ".skill.md")) {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) < 20 {
		t.Fatalf("only %d skills found", len(paths))
	}
	const pad = "\n\n\n"
	shared := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f1, _ := syntax.Parse(p, src)
		f2, _ := syntax.Parse(p, append([]byte(pad), src...))
		before := dump(f1)
		check := func(what string, got, want any) {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: shifted %s differ from the parse of the padded text", p, what)
			}
		}
		check("targets", ast.Shifted(f1.Targets, len(pad)), f2.Targets)
		check("headers", ast.Shifted(f1.Headers, len(pad)), f2.Headers)
		check("comments", ast.Shifted(f1.Comments, len(pad)), f2.Comments)
		check("defaults", ast.Shifted(f1.Defaults, len(pad)), f2.Defaults)
		check("templates", ast.Shifted(f1.Templates, len(pad)), f2.Templates)
		check("bad lines", ast.Shifted(f1.Bad, len(pad)), f2.Bad)
		if dump(f1) != before {
			t.Errorf("%s: Shifted changed the original tree", p)
		}
		for _, tg := range ast.Shifted(f1.Targets, len(pad)) {
			for _, ns := range tg.NeedsInBody {
				for _, id := range ns.Names {
					if !containsPtr(tg.Needs, id) {
						t.Errorf("%s: target %s: the copy of needs: %s is not shared with Needs", p, tg.Name.Name, id.Name)
					}
					shared++
				}
			}
		}
	}
	t.Logf("%d skills, %d shared needs identifiers", len(paths), shared)
}

func containsPtr(ids []*ast.Ident, id *ast.Ident) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// dump prints f with its positions.
func dump(f *ast.File) string {
	var b strings.Builder
	ast.Fprint(&b, f.Lines, f)
	return b.String()
}
