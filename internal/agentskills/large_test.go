package agentskills

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFiftyMegabyteSkillMD: a 50 MB SKILL.md (sparse, generated here) is
// refused by size before it is read.
func TestFiftyMegabyteSkillMD(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "big")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("---\nname: big\ndescription: d\n---\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, ds, err := LoadDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Rule != RuleTooLarge || s.Loadable || len(s.Src) != 0 {
		t.Errorf("got %v, loadable=%v, %d bytes read", ds, s.Loadable, len(s.Src))
	}
	// Parse applies the same cap to bytes handed to it directly.
	_, ds = Parse(Input{Src: make([]byte, DefaultMaxSize+1)}, Options{})
	if len(ds) != 1 || ds[0].Rule != RuleTooLarge {
		t.Errorf("Parse: %v", ds)
	}
}
