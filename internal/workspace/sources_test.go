package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

// TestSources: each file is read once whatever path names it and however
// many goroutines ask, a failed read is tried again; the skill-directory index of
// an environment loaded with the cache's Read reads through it.
func TestSources(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name, body := range map[string]string{"a.skill.md": "# Skill: ay\n", "b.skill.md": "# Skill: bee\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	reads := map[string]int{}
	read := func(path string) ([]byte, error) {
		mu.Lock()
		reads[filepath.Base(path)]++
		mu.Unlock()
		return os.ReadFile(path)
	}
	c := NewSources(read, filepath.Abs)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, err := c.Read("a.skill.md"); err != nil || string(b) != "# Skill: ay\n" {
				t.Errorf("Read(a.skill.md) = %q, %v", b, err)
			}
		}()
	}
	wg.Wait()
	if b, err := c.Read(filepath.Join(dir, ".", "a.skill.md")); err != nil || string(b) != "# Skill: ay\n" {
		t.Fatalf("Read by the absolute path = %q, %v", b, err)
	}
	for range 2 {
		if _, err := c.Read("missing.skill.md"); !os.IsNotExist(err) {
			t.Fatalf("Read(missing) error %v", err)
		}
	}
	env := Load(dir, LoadOptions{Home: t.TempDir(), DefaultSkillsDir: dir, ReadSource: c.Read})
	if !env.Lint.SkillsKnown {
		t.Fatal("the skill directory was not indexed")
	}
	if _, ok := env.Lint.Skills.Lookup("bee"); !ok {
		t.Fatal("Lookup(bee) found nothing")
	}
	// the index read b (scan, lookup) through the cache: once
	if want := map[string]int{"a.skill.md": 1, "b.skill.md": 1, "missing.skill.md": 2}; !reflect.DeepEqual(reads, want) {
		t.Fatalf("reads %v, want %v", reads, want)
	}
	c.Done()
	if b, err := c.Read("a.skill.md"); err != nil || string(b) != "# Skill: ay\n" || reads["a.skill.md"] != 2 {
		t.Fatalf("after Done: Read(a.skill.md) = %q, %v after %d reads, want a new read", b, err, reads["a.skill.md"])
	}
}
