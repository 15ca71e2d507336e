package registry

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// describe returns name → description of the visible skills.
func describe(r *Registry) map[string]string {
	out := map[string]string{}
	for _, rec := range r.List() {
		out[rec.Name] = rec.Description
	}
	return out
}

// TestCacheFile persists the hashes, listings and parsed packages of a
// real tree in a real file and checks that a new registry (a new
// process) reuses them while a file keeps its size and modification
// time, and sees every real change: an edited file, an added file, a
// removed package; a damaged cache file is ignored.
func TestCacheFile(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"alpha/SKILL.md":        skillMD("alpha", "Reads spreadsheets aloud."),
		"alpha/scripts/read.py": "print('alpha')\n",
		"beta/SKILL.md":         skillMD("beta", "Merges PDF files quickly."),
		"gamma/SKILL.md":        "---\nname: gamma\ndescription: Draws charts.\nmetadata:\n  tags: [charts, plots]\n  version: 2\n---\n# Gamma\n",
	})
	file := filepath.Join(t.TempDir(), "cache", "registry.gob")
	opts := Options{Roots: []Root{{Dir: root, Origin: OriginProject}}, CacheFile: file}
	first := New(opts)
	first.Refresh()
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no cache file after Refresh: %v", err)
	}

	second := New(opts)
	second.Refresh()
	if !reflect.DeepEqual(describe(first), describe(second)) {
		t.Fatalf("a registry from the cache differs: %v vs %v", describe(second), describe(first))
	}
	for _, name := range []string{"alpha", "beta", "gamma"} {
		a, _ := first.Lookup(name)
		b, _ := second.Lookup(name)
		if a.Digest != b.Digest || !reflect.DeepEqual(a.FrontmatterMap(), b.FrontmatterMap()) || !reflect.DeepEqual(a.Resources, b.Resources) || a.Text() != b.Text() || string(a.Source()) != string(b.Source()) || a.Loadable != b.Loadable {
			t.Errorf("%s from the cache differs:\n%+v\n%+v", name, b, a)
		}
	}

	// the cache is keyed by size and modification time: a same-size edit
	// that restores the modification time is not seen (the documented
	// trade-off), which shows the cached record was used...
	beta := filepath.Join(root, "beta", "SKILL.md")
	st, _ := os.Stat(beta)
	if err := os.WriteFile(beta, []byte(skillMD("beta", "Splits PDF files rapidly.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(beta, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	cached := New(opts)
	cached.Refresh()
	if got := describe(cached)["beta"]; got != "Merges PDF files quickly." {
		t.Errorf("beta = %q: the cached record was not used", got)
	}
	uncached := New(Options{Roots: opts.Roots})
	uncached.Refresh()
	if got := describe(uncached)["beta"]; got != "Splits PDF files rapidly." {
		t.Errorf("beta without a cache = %q", got)
	}

	// ...and a real edit, an added file and a removed package are seen
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(beta, later, later); err != nil {
		t.Fatal(err)
	}
	before, _ := second.Lookup("alpha")
	write(t, root, map[string]string{"alpha/references/guide.md": "more\n"})
	if err := os.RemoveAll(filepath.Join(root, "gamma")); err != nil {
		t.Fatal(err)
	}
	third := New(opts)
	third.Refresh()
	if got := describe(third); got["beta"] != "Splits PDF files rapidly." || got["gamma"] != "" || len(got) != 2 {
		t.Errorf("after the changes: %v", got)
	}
	if after, _ := third.Lookup("alpha"); after.Digest == before.Digest || len(after.Resources) != 3 {
		t.Errorf("the added file is not in alpha's manifest: %+v", after.Resources)
	}

	// a damaged cache is ignored and rewritten
	if err := os.WriteFile(file, []byte("not a cache"), 0o644); err != nil {
		t.Fatal(err)
	}
	fourth := New(opts)
	fourth.Refresh()
	if !reflect.DeepEqual(describe(fourth), describe(third)) {
		t.Errorf("with a damaged cache: %v", describe(fourth))
	}
	fifth := New(opts)
	fifth.Refresh()
	if !reflect.DeepEqual(describe(fifth), describe(third)) {
		t.Errorf("after rewriting the damaged cache: %v", describe(fifth))
	}

	// another validation configuration does not reuse the records
	other := opts
	other.Validation.Claude = true
	if other.validationKey() == opts.validationKey() {
		t.Errorf("the claude profile has the same cache key")
	}
}

// read returns a copy of r with its Src, Body and extras read (what a
// record parsed from its package holds).
func read(r *Record) *Record {
	cp := *r
	cp.src, cp.body, cp.frontmatter, cp.headings, cp.diags, cp.lazy = r.Source(), r.Text(), r.FrontmatterMap(), r.HeadingTexts(), r.Diagnostics(), nil
	return &cp
}

// parsedAndCached refreshes one registry over root with a fresh cache
// file and a second one from that file, and returns both record lists
// (parsed, then cached) with the options that name the file; it fails the
// test unless both lists hold the same number of records, at least min.
func parsedAndCached(t *testing.T, root string, min int) (parsed, cached []*Record, opts Options) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "registry.cache")
	opts = Options{Roots: []Root{{Dir: root, Origin: OriginProject}}, CacheFile: file}
	first := New(opts)
	first.Refresh()
	second := New(opts)
	second.Refresh()
	parsed, cached = first.All(), second.All()
	if len(parsed) != len(cached) || len(parsed) < min {
		t.Fatalf("%d records, %d from the cache", len(parsed), len(cached))
	}
	return parsed, cached, opts
}

// TestCacheFileRecords: every field of a record read back from the cache
// file equals the record parsed from the package — frontmatter of every
// YAML value type, classification, validation diagnostics, resources,
// body and source — and a cut-short file is ignored.
func TestCacheFileRecords(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"plain/SKILL.md":         skillMD("plain", "Reads spreadsheets aloud."),
		"typed/SKILL.md":         "---\nname: typed\ndescription: Typed frontmatter values.\nreleased: 2024-01-02\nlimits:\n  max: 3\n  ratio: 0.5\n  on: true\n  big: 18446744073709551615\n  list: [a, 1, null]\nmetadata:\n  tags: charts plots\n  classification.role: sidecar\n  classification.invocation: attach\n  classification.effect_mode: read_only\n  classification.attach_targets: run output\n---\n# Typed\n\nBody with ünïcode.\n",
		"warned/SKILL.md":        "---\nname: warned\ndescription: A package with a nested metadata map.\nmetadata:\n  classification:\n    role: utility\n---\n# Warned\n",
		"warned/scripts/run.sh":  "echo hi\n",
		"warned/references/a.md": "a\n",
		"nofront/SKILL.md":       "# No frontmatter\n",
		"mismatch/SKILL.md":      skillMD("other-name", "Its name differs from its directory."),
	})
	a, b, opts := parsedAndCached(t, root, 4)
	var diags, class, typed bool
	for i := range a {
		if b[i].lazy == nil || b[i].src != nil || b[i].body != "" || b[i].frontmatter != nil || b[i].headings != nil || b[i].diags != nil {
			t.Errorf("%s from the cache has its source or extras read at load", a[i].ID)
		}
		if !reflect.DeepEqual(a[i], read(b[i])) {
			t.Errorf("%s from the cache differs:\n%+v\nparsed:\n%+v", a[i].ID, b[i], a[i])
		}
		diags = diags || len(a[i].Diagnostics()) > 0
		class = class || a[i].Class != nil
		typed = typed || a[i].FrontmatterMap()["limits"] != nil
	}
	if !diags || !class || !typed {
		t.Errorf("the tree does not exercise the file: diagnostics %v, classification %v, typed frontmatter %v", diags, class, typed)
	}
	// a file cut short is ignored: the records are parsed again, alike
	data, err := os.ReadFile(opts.CacheFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{len(data) / 3, len(data) - 5} {
		if err := os.WriteFile(opts.CacheFile, data[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		third := New(opts)
		third.Refresh()
		if c := third.All(); !reflect.DeepEqual(a, c) {
			t.Errorf("a cache cut at %d of %d bytes changed the records", n, len(data))
		}
	}
}

// TestCacheFileSourcesLater: a record loaded from the cache file reads
// its Src and Body (and its extras) only when asked, from the file it was loaded from —
// also after a later save replaced that file — and, once that file is
// closed, from its package.
func TestCacheFileSourcesLater(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"alpha/SKILL.md": skillMD("alpha", "Reads spreadsheets aloud."),
		"beta/SKILL.md":  skillMD("beta", "Merges PDF files quickly."),
	})
	file := filepath.Join(t.TempDir(), "registry.cache")
	opts := Options{Roots: []Root{{Dir: root, Origin: OriginProject}}, CacheFile: file}
	first := New(opts)
	first.Refresh()
	want := map[string]*Record{}
	for _, r := range first.All() {
		want[r.Name] = r
	}

	// unread records survive a save that replaces the file (the save
	// reads them first)...
	second := New(opts)
	second.Refresh()
	write(t, root, map[string]string{"gamma/SKILL.md": skillMD("gamma", "Draws charts.")})
	second.Refresh()
	for _, name := range []string{"alpha", "beta"} {
		r, ok := second.Lookup(name)
		if !ok || r.Text() != want[name].Text() || string(r.Source()) != string(want[name].Source()) {
			t.Errorf("%s after a save: body %q, source %q", name, r.Text(), r.Source())
		}
	}

	// ...and a record whose file was closed before it was read is read
	// from its package
	third := New(opts)
	third.Refresh()
	alpha, _ := third.Lookup("alpha")
	cp := *alpha
	third.cache.mu.Lock()
	third.cache.src.close()
	third.cache.mu.Unlock()
	if cp.Text() != want["alpha"].Text() || string(cp.Source()) != string(want["alpha"].Source()) {
		t.Errorf("alpha with its cache file closed: body %q, source %q", cp.Text(), cp.Source())
	}
	if !reflect.DeepEqual(cp.FrontmatterMap(), want["alpha"].FrontmatterMap()) || !reflect.DeepEqual(cp.HeadingTexts(), want["alpha"].HeadingTexts()) || !reflect.DeepEqual(cp.Diagnostics(), want["alpha"].Diagnostics()) {
		t.Errorf("alpha's extras with its cache file closed: %v %v %v", cp.FrontmatterMap(), cp.HeadingTexts(), cp.Diagnostics())
	}
}

// TestWithin pins the bounds check of a cached record's source region,
// including offsets and lengths whose sum overflows.
func TestWithin(t *testing.T) {
	const max = ^uint64(0)
	for _, c := range []struct {
		off, n, size uint64
		want         bool
	}{
		{0, 0, 0, true}, {0, 10, 10, true}, {5, 5, 10, true}, {6, 5, 10, false},
		{0, 11, 10, false}, {10, max - 4, 10, false}, {max, 2, 10, false}, {max, 0, 10, false},
	} {
		if got := within(c.off, c.n, c.size); got != c.want {
			t.Errorf("within(%d, %d, %d) = %v, want %v", c.off, c.n, c.size, got, c.want)
		}
	}
}

// FuzzCacheFile loads damaged cache files: whatever the bytes, a new
// registry neither panics nor differs from one built without the cache
// (every record read in full, sources and extras included). The seeds
// are the real file, the file with one byte changed in its head, its
// metadata and its sources, and the file cut short.
func FuzzCacheFile(f *testing.F) {
	root := f.TempDir()
	write(f, root, map[string]string{
		"plain/SKILL.md":        skillMD("plain", "Reads spreadsheets aloud."),
		"plain/scripts/read.py": "print('plain')\n",
		"warned/SKILL.md":       "---\nname: warned\ndescription: A package with extra keys.\nsource: somewhere\ntags: [a, b]\nmetadata:\n  classification.role: sidecar\n  classification.invocation: attach\n  classification.effect_mode: read_only\n  classification.attach_targets: run\n---\n# Warned\n\n## Steps\n\nBody.\n",
		"nofront/SKILL.md":      "# No frontmatter\n",
	})
	roots := []Root{{Dir: root, Origin: OriginProject}}
	want := New(Options{Roots: roots})
	want.Refresh()
	file := filepath.Join(f.TempDir(), "registry.cache")
	New(Options{Roots: roots, CacheFile: file}).Refresh()
	data, err := os.ReadFile(file)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	for _, at := range []int{len(cacheMagic) + 3, len(cacheMagic) + 9, len(cacheMagic) + 40, len(data) / 2, len(data) - 10} {
		d := bytes.Clone(data)
		d[at] ^= 0x5a
		f.Add(d)
	}
	f.Add(data[:len(data)-7])
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "registry.cache")
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		got := New(Options{Roots: roots, CacheFile: file})
		got.Refresh()
		a, b := want.All(), got.All()
		if len(a) != len(b) {
			t.Fatalf("%d records, %d without the cache", len(b), len(a))
		}
		for i := range a {
			if !reflect.DeepEqual(a[i], read(b[i])) {
				t.Errorf("%s differs:\n%+v\nwithout the cache:\n%+v", a[i].ID, read(b[i]), a[i])
			}
		}
	})
}

// TestRacyListing: a directory listed within racyWindow of its last
// change is listed again next time (another change in the same clock
// tick would keep its modification time); an older one is reused.
func TestRacyListing(t *testing.T) {
	fresh, old := t.TempDir(), t.TempDir()
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	c := newCache()
	for _, dir := range []string{fresh, old} {
		st, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.readDir(dir, statOf(st)); err != nil {
			t.Fatal(err)
		}
	}
	if !c.dirs[fresh].mtime.IsZero() {
		t.Errorf("a listing made right after a change is kept for reuse (mtime %v)", c.dirs[fresh].mtime)
	}
	if !c.dirs[old].mtime.Equal(hourAgo) {
		t.Errorf("an hour-old directory's listing is not kept (mtime %v)", c.dirs[old].mtime)
	}
}
