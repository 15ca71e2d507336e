package trace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/syntax"
)

// A run recorded in the spool is in the store after the next Open, with
// its source, output and ops, and its spool file is gone.
func TestSpoolImportedOnOpen(t *testing.T) {
	dir := t.TempDir()
	sp, err := OpenSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("# Skill: hello\n# Status: Draft\n# Vars: WHO=x\nrun:\n    emit(text=\"hi ${WHO}\")\ndefault: run\n")
	f, _ := syntax.Parse("hello.skill.md", src)
	res, id, err := sp.ExecParsed(context.Background(), eval.Runner{}, Run{Trigger: "cli"}, "hello.skill.md", src, f, check.Check(f),
		map[string]any{"WHO": "s3cret"}, []string{"s3cret"})
	if err != nil || res.Failed() {
		t.Fatalf("ExecParsed = %+v, %v", res, err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, SpoolDir, "*"+spoolExt)); len(m) != 1 {
		t.Fatalf("spool files = %v, want one", m)
	}
	st, err := Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, body, err := st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusOK || r.Skill != "hello" || body != string(src) || r.Output != res.Outputs.Text || len(r.Ops) != 1 || r.Inputs["WHO"] != Redacted {
		t.Errorf("imported run = %+v, source %q", r, body)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, SpoolDir, "*")); len(m) != 0 {
		t.Errorf("spool files left after the import: %v", m)
	}
}

// A spool file whose writer still holds it is left for later; once the
// writer is gone (as after kill -9: the kernel drops the lock) its begin
// record is imported as a running row, and a torn last line is ignored.
func TestSpoolLiveAndKilledWriters(t *testing.T) {
	dir := t.TempDir()
	sp, err := OpenSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sp.begin(&Run{ID: "live", Skill: "s", ContentHash: "h", Trigger: "cli"}, "# Skill: s\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.f.WriteString(`{"finish":{"status":"ok"`); err != nil { // torn: no newline
		t.Fatal(err)
	}
	st, err := Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Get(context.Background(), "live"); err == nil {
		t.Error("a run whose writer is alive was imported")
	}
	st.Close()
	w.close() // the writer ends without its finish record
	st, err = Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, _, err := st.Get(context.Background(), "live")
	if err != nil || r.Status != StatusRunning {
		t.Fatalf("killed writer's run = %+v, %v", r, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, SpoolDir)); len(ents) != 0 {
		t.Errorf("spool not emptied: %v", ents)
	}
}

// A spool file that is not JSON names itself in the error of Open.
func TestSpoolCorruptNamed(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, SpoolDir), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, SpoolDir, "x"+spoolExt)
	if err := os.WriteFile(bad, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(filepath.Join(dir, FileName))
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("Open with a corrupt spool file = %v, want an error naming %s", err, bad)
	}
}

// TestSpoolCrowded pins how many waiting runs make a spool crowded, and
// that opening the store (the import) empties it.
func TestSpoolCrowded(t *testing.T) {
	dir := t.TempDir()
	sp, err := OpenSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("# Skill: hello\n# Status: Draft\nrun:\n    emit(text=\"hi\")\ndefault: run\n")
	f, _ := syntax.Parse("hello.skill.md", src)
	for i := 0; i < 3; i++ {
		if _, _, err := sp.ExecParsed(context.Background(), eval.Runner{}, Run{Trigger: "cli"}, "hello.skill.md", src, f, check.Check(f), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if !sp.Crowded(2) || sp.Crowded(3) {
		t.Fatalf("three waiting runs: Crowded(2) = %v, Crowded(3) = %v; want true, false", sp.Crowded(2), sp.Crowded(3))
	}
	st, err := Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if sp.Crowded(0) {
		t.Error("the spool is still crowded after the store imported it")
	}
	runs, err := st.Fires(context.Background(), Filter{Skill: "hello"})
	if err != nil || len(runs) != 3 {
		t.Fatalf("imported runs = %d, %v; want 3", len(runs), err)
	}
}
