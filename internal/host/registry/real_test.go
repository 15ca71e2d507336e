package registry

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

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
				for _, d := range rec.Diagnostics() {
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
		for _, d := range a[i].Diagnostics() {
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

// realRoot is the directory of the 127 real packages.
func realRoot(tb testing.TB) string {
	tb.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "gateway", "real", "skills"))
	if err != nil {
		tb.Fatal(err)
	}
	return root
}

// realShapedTree writes n packages under a new root: the real packages
// of testdata/gateway/real in directory order (bytes unchanged), then
// copies of them round-robin, copy k renamed NAME-cK (directory and
// frontmatter name) — the shape of the gateway's real-catalog benchmark.
func realShapedTree(tb testing.TB, n int) string {
	tb.Helper()
	src := realRoot(tb)
	ents, err := os.ReadDir(src)
	if err != nil {
		tb.Fatal(err)
	}
	root := tb.TempDir()
	for i := range n {
		name := ents[i%len(ents)].Name()
		data, err := os.ReadFile(filepath.Join(src, name, "SKILL.md"))
		if err != nil {
			tb.Fatal(err)
		}
		if k := i / len(ents); k > 0 {
			suffix := fmt.Sprintf("-c%d", k)
			name += suffix
			lines := strings.SplitAfter(string(data), "\n")
			for j, l := range lines {
				if strings.HasPrefix(l, "name:") {
					body := strings.TrimRight(l, "\r\n")
					lines[j] = "name: " + strings.Trim(strings.TrimSpace(strings.TrimPrefix(body, "name:")), `"'`) + suffix + l[len(body):]
					break
				}
			}
			data = []byte(strings.Join(lines, ""))
		}
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name, "SKILL.md"), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

// ageTree sets the modification times of the files and directories
// under dirs an hour back, so that their listings are reused
// (racyWindow) as those of a catalog written before are.
func ageTree(tb testing.TB, dirs ...string) {
	tb.Helper()
	hourAgo := time.Now().Add(-time.Hour)
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type()&fs.ModeSymlink == 0 {
				err = os.Chtimes(p, hourAgo, hourAgo)
			}
			return err
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkSecondRefresh is the registry's part of a second `skills
// discover` at 5,000 real-shaped packages: a new registry over the cache
// file an earlier one wrote (load it, scan, stat, reuse every record).
func BenchmarkSecondRefresh(b *testing.B) {
	root := realShapedTree(b, 5000)
	ageTree(b, root)
	opts := Options{Roots: []Root{{Dir: root, Origin: OriginProject}}, MaxDirs: 6000, CacheFile: filepath.Join(b.TempDir(), "registry.cache")}
	New(opts).Refresh()
	b.ReportAllocs()
	for b.Loop() {
		r := New(opts)
		r.Refresh()
		if len(r.All()) != 5000 {
			b.Fatalf("%d records", len(r.All()))
		}
	}
}

// TestCacheFileSeesChanges edits a real-shaped tree between registries
// sharing one cache file (each a new process) and checks after every
// change that the registry from the cache equals one built without it:
// a SKILL.md edited at the same size with a newer modification time, or
// at another size with its old modification time restored, a package
// added (at the root, in a new directory, in a directory already
// listed), removed or renamed, a SKILL.md renamed away and back, a file
// added to a package, and a file added to a package reached through a
// symbolic link (whose own modification time does not change).
func TestCacheFileSeesChanges(t *testing.T) {
	root := realShapedTree(t, 12)
	elsewhere := t.TempDir()
	write(t, elsewhere, map[string]string{"linked/SKILL.md": skillMD("linked", "Reached through a link.")})
	mustLink(t, filepath.Join(elsewhere, "linked"), filepath.Join(root, "linked"))
	ageTree(t, root, elsewhere)
	file := filepath.Join(t.TempDir(), "registry.cache")
	opts := Options{Roots: []Root{{Dir: root, Origin: OriginProject}}, CacheFile: file}
	New(opts).Refresh()
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	pkg := func(i int) string { return filepath.Join(root, ents[i].Name()) }
	later := time.Now().Add(2 * time.Second)
	for _, step := range []struct {
		name   string
		change func() error
	}{
		{"same size, newer time", func() error {
			md := filepath.Join(pkg(0), "SKILL.md")
			data, err := os.ReadFile(md)
			if err != nil {
				return err
			}
			i := strings.Index(string(data), "description:") + len("description: ")
			data[i], data[i+1] = data[i+1], data[i]
			if err := os.WriteFile(md, data, 0o644); err != nil {
				return err
			}
			return os.Chtimes(md, later, later)
		}},
		{"other size, same time", func() error {
			md := filepath.Join(pkg(1), "SKILL.md")
			st, err := os.Stat(md)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(md)
			if err != nil {
				return err
			}
			if err := os.WriteFile(md, append(data, "\nOne more line.\n"...), 0o644); err != nil {
				return err
			}
			return os.Chtimes(md, st.ModTime(), st.ModTime())
		}},
		{"package added", func() error {
			return os.CopyFS(filepath.Join(root, "added"), os.DirFS(pkg(2)))
		}},
		{"package added in a new group directory", func() error {
			return os.CopyFS(filepath.Join(root, "group", "first"), os.DirFS(pkg(7)))
		}},
		{"package added in that group directory", func() error {
			return os.CopyFS(filepath.Join(root, "group", "second"), os.DirFS(pkg(8)))
		}},
		{"package removed", func() error { return os.RemoveAll(pkg(3)) }},
		{"package renamed", func() error { return os.Rename(pkg(4), pkg(4)+"-renamed") }},
		{"SKILL.md renamed away", func() error {
			return os.Rename(filepath.Join(pkg(5), "SKILL.md"), filepath.Join(pkg(5), "NOTES.md"))
		}},
		{"SKILL.md renamed back", func() error {
			return os.Rename(filepath.Join(pkg(5), "NOTES.md"), filepath.Join(pkg(5), "SKILL.md"))
		}},
		{"file added", func() error {
			return os.WriteFile(filepath.Join(pkg(6), "reference.md"), []byte("# More\n"), 0o644)
		}},
		{"file added behind a link", func() error {
			return os.WriteFile(filepath.Join(elsewhere, "linked", "reference.md"), []byte("# More\n"), 0o644)
		}},
	} {
		if err := step.change(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		want := New(Options{Roots: opts.Roots})
		want.Refresh()
		got := New(opts)
		got.Refresh()
		a, b := want.All(), got.All()
		if len(a) != len(b) {
			t.Errorf("%s: %d records from the cache, %d parsed", step.name, len(b), len(a))
			continue
		}
		for i := range a {
			if !reflect.DeepEqual(a[i], read(b[i])) {
				t.Errorf("%s: %s from the cache differs:\n%+v\nparsed:\n%+v", step.name, a[i].ID, read(b[i]), a[i])
			}
		}
		if !reflect.DeepEqual(problems(want), problems(got)) {
			t.Errorf("%s: problems %v, parsed %v", step.name, problems(got), problems(want))
		}
	}
}
