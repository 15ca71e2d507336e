package skillstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
)

// TestOverlayReadsFolderWritesStore: reads come from the folder, then the
// store; writes go to the store only and are read back from it, also for a
// name the folder has; the folder's files are never touched.
func TestOverlayReadsFolderWritesStore(t *testing.T) {
	ctx := context.Background()
	folder, home := t.TempDir(), t.TempDir()
	sib := "# Skill: sib\n# Status: Approved\n\nx:\n    emit(text=\"folder\")\n\ndefault: x\n"
	if err := os.WriteFile(filepath.Join(folder, "sib.skill.md"), []byte(sib), 0o644); err != nil {
		t.Fatal(err)
	}
	read, err := NewFS(folder, nil)
	if err != nil {
		t.Fatal(err)
	}
	target, err := NewFS(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	var noted []string
	o := &Overlay{Read: read, Target: target, OnWrite: func(n string) { noted = append(noted, n) }}
	if r, err := o.Get(ctx, "sib"); err != nil || r == nil || r.Body != sib {
		t.Fatalf("Get(sib) = %+v, %v", r, err)
	}
	if r, _ := o.Get(ctx, "none"); r != nil {
		t.Fatalf("Get(none) = %+v", r)
	}
	newSib := "# Skill: sib\n# Status: Draft\n\nx:\n    emit(text=\"store\")\n\ndefault: x\n"
	for _, w := range []struct{ name, body string }{{"made", "# Skill: made\n\nx:\n    emit(text=\"m\")\n\ndefault: x\n"}, {"sib", newSib}} {
		if _, err := o.Write(ctx, w.name, w.body, "t"); err != nil {
			t.Fatal(err)
		}
	}
	if r, _ := o.Get(ctx, "sib"); r == nil || r.Body != newSib {
		t.Fatalf("sib after the write = %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(folder, "sib.skill.md")); string(b) != sib {
		t.Fatalf("the folder's sib changed: %q", b)
	}
	entries, _ := os.ReadDir(folder)
	if len(entries) != 1 {
		t.Fatalf("the folder holds %d entries, want 1", len(entries))
	}
	metas, err := o.List(ctx, contract.SkillQuery{})
	if err != nil || len(metas) != 2 || metas[0].Name != "made" || metas[1].Name != "sib" || metas[1].Status != "Draft" {
		t.Fatalf("List = %+v, %v", metas, err)
	}
	if len(noted) != 2 {
		t.Fatalf("OnWrite saw %v", noted)
	}
	if vs, err := o.Versions(ctx, "sib"); err != nil || len(vs) == 0 {
		t.Fatalf("Versions(sib) = %v, %v", vs, err)
	}
}
