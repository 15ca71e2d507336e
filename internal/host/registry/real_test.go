package registry

import (
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
)

// TestRealPackages indexes the 127 public SKILL.md packages of
// testdata/gateway/real (claude-code-skills@0.5.0, unchanged bytes) and
// pins what validation says about them: in the compat profile the only
// error is the one the package really has (data-processing-ray-data's
// frontmatter is invalid YAML: "[ray[data], ...]"), and the claude
// profile adds exactly the two descriptions that contain '<' (which
// Anthropic's own validator refuses too). Every other package loads,
// whatever its CRLF line endings, extra keys or directory/name mismatch.
func TestRealPackages(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "gateway", "real", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		opts   agentskills.Options
		errors []string // "dir rule", sorted
	}{
		{"compat", agentskills.Options{}, []string{"data-processing-ray-data skillmd-yaml"}},
		{"claude", agentskills.Options{Claude: true}, []string{
			"data-processing-ray-data skillmd-yaml",
			"distributed-training-megatron-core skillmd-claude-profile",
			"rag-pinecone skillmd-claude-profile",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New(Options{Roots: []Root{{Dir: root, Origin: OriginConfig}}, Validation: c.opts})
			r.Refresh()
			if n := len(r.All()); n != 127 {
				t.Fatalf("indexed %d packages, want 127; problems %v", n, problems(r))
			}
			var errs []string
			loadable := 0
			for _, rec := range r.All() {
				dir := filepath.Base(filepath.Dir(rec.Location))
				for _, d := range rec.Diags {
					if d.Severity == ast.Error {
						errs = append(errs, dir+" "+d.Rule)
					}
				}
				if rec.Loadable {
					loadable++
				}
			}
			sort.Strings(errs)
			if strings.Join(errs, "\n") != strings.Join(c.errors, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(c.errors, "\n"))
			}
			// the claude profile's findings are about uploading to
			// Claude; they do not make a package unusable here
			if loadable != 126 {
				t.Errorf("%d loadable packages, want 126", loadable)
			}
			for _, p := range r.Problems() {
				if p.Severity == ast.Error {
					t.Errorf("registry problem: %s: %s %s", p.File, p.Rule, p.Message)
				}
			}
		})
	}
}

// TestCacheFileRealPackages reads the 127 real packages back from the
// cache file: every record equals the parsed one once its Src and Body
// are read, diagnostics with fixes and related locations included (the
// set has both kinds).
func TestCacheFileRealPackages(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "gateway", "real", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Roots: []Root{{Dir: root, Origin: OriginConfig}}, CacheFile: filepath.Join(t.TempDir(), "registry.cache")}
	first := New(opts)
	first.Refresh()
	second := New(opts)
	second.Refresh()
	a, b := first.All(), second.All()
	if len(a) != 127 || len(b) != len(a) {
		t.Fatalf("%d records, %d from the cache", len(a), len(b))
	}
	plain, fixes := 0, 0
	for i := range a {
		if b[i].lazy == nil {
			t.Errorf("%s was not read from the cache file", a[i].ID)
		}
		if !reflect.DeepEqual(a[i], read(b[i])) {
			t.Errorf("%s from the cache differs:\n%+v\nparsed:\n%+v", a[i].ID, b[i], a[i])
		}
		for _, d := range a[i].Diags {
			if d.Fixes != nil || d.Related != nil {
				fixes++
			} else {
				plain++
			}
		}
	}
	if plain == 0 || fixes == 0 {
		t.Errorf("%d plain diagnostics, %d with fixes or related locations: the set should exercise both", plain, fixes)
	}
}
