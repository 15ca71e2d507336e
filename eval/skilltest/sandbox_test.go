package skilltest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
)

// TestLazyStoresWorkOnACopy drives the scratch stores directly: the skill
// store starts as a copy of the seed and every change stays in the copy;
// the data store is a working SQLite store opened on first use.
func TestLazyStoresWorkOnACopy(t *testing.T) {
	ctx := context.Background()
	seed := t.TempDir()
	body := "# Skill: a\n# Status: Approved\n\nm:\n    emit(text=\"a\")\n\ndefault: m\n"
	if err := os.WriteFile(filepath.Join(seed, "a.skill.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	sb := newSandbox(parent, seed)
	if left, _ := os.ReadDir(parent); len(left) != 0 || sb.dir != "" {
		t.Errorf("scratch directory created before first use")
	}
	metas, err := sb.sk.List(ctx, contract.SkillQuery{})
	if err != nil || len(metas) != 1 || metas[0].Name != "a" {
		t.Fatalf("List = %+v, %v", metas, err)
	}
	if err := sb.sk.UpdateStatus(ctx, "a", "Disabled"); err != nil {
		t.Fatal(err)
	}
	if vs, err := sb.sk.Versions(ctx, "a"); err != nil || len(vs) == 0 {
		t.Errorf("Versions = %v, %v", vs, err)
	}
	if err := sb.sk.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if rec, err := sb.sk.Get(ctx, "a"); err != nil || rec != nil {
		t.Errorf("Get after Delete = %v, %v", rec, err)
	}
	if b, _ := os.ReadFile(filepath.Join(seed, "a.skill.md")); string(b) != body {
		t.Errorf("seed changed:\n%s", b)
	}
	w, err := sb.data.Write(ctx, contract.WriteRequest{Content: "hello", Tags: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := sb.data.Get(ctx, w.ID); err != nil || rec == nil || rec.Detail != "hello" {
		t.Errorf("Get(%s) = %+v, %v", w.ID, rec, err)
	}
	if m := sb.data.Manifest(ctx); !m.SupportsWrites || len(m.SupportedModes) == 0 {
		t.Errorf("empty manifest %+v", m)
	}
	dir := sb.dir
	if err := sb.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("scratch directory left: %v", err)
	}
}

func TestShownShortensLongOutput(t *testing.T) {
	long := strings.Repeat("x", maxShown+25)
	if got := shown(long); !strings.HasSuffix(got, "(25 more characters)") || strings.Count(got, "x") != maxShown {
		t.Errorf("shown(long) = %q", got)
	}
	if got := shown(""); got != "nothing (empty output)" {
		t.Errorf("shown(\"\") = %q", got)
	}
}
