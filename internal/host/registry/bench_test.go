package registry

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/agentskills"
)

// makePackages writes n packages (SKILL.md plus one reference file) in
// 100 group directories under a new temporary root.
func makePackages(tb testing.TB, n int) string {
	tb.Helper()
	base := tb.TempDir()
	for i := range n {
		dir := filepath.Join(base, fmt.Sprintf("g%03d", i/100), fmt.Sprintf("skill-%05d", i))
		if err := os.MkdirAll(filepath.Join(dir, "references"), 0o755); err != nil {
			tb.Fatal(err)
		}
		name := filepath.Base(dir)
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skillMD(name, "Generated skill number "+name+".")), 0o644); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "references", "notes.md"), []byte(strings.Repeat("notes ", 50)), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return base
}

// Test10000Packages indexes 10,000 generated packages: all are found
// when the limits allow it, and the default directory limit is reported
// instead of silently truncating.
func Test10000Packages(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20,000 files")
	}
	base := makePackages(t, 10000)
	r := New(Options{Roots: []Root{{base, OriginUser}}, MaxDirs: 20000})
	r.Refresh()
	if n := len(r.List()); n != 10000 {
		t.Fatalf("indexed %d packages, want 10000 (%d problems)", n, len(r.Problems()))
	}
	r = New(Options{Roots: []Root{{base, OriginUser}}})
	r.Refresh()
	probs := r.Problems()
	if len(probs) != 1 || probs[0].Diag.Rule != agentskills.RuleScanLimit || len(r.List()) >= 10000 {
		t.Errorf("default limit: %d skills, problems %v", len(r.List()), probs)
	}
}

// BenchmarkIndex10000 indexes 10,000 packages: cold (a new registry:
// parse, validate and hash everything) and warm (Refresh of an indexed
// registry: stat-based hash cache, SKILL.md parsed again).
func BenchmarkIndex10000(b *testing.B) {
	base := makePackages(b, 10000)
	opts := Options{Roots: []Root{{base, OriginUser}}, MaxDirs: 20000}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			New(opts).Refresh()
		}
	})
	b.Run("warm", func(b *testing.B) {
		r := New(opts)
		r.Refresh()
		b.ResetTimer()
		for b.Loop() {
			r.Refresh()
		}
	})
}
