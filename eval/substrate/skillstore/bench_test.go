package skillstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
)

func fillSkills(b *testing.B, s contract.SkillStore, n int) {
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("skill-%04d", i)
		body := fmt.Sprintf("# Skill: %s\n# Status: Approved\n# Description: benchmark skill %d\n\nrun:\n    emit(text=\"%d\")\n\ndefault: run\n", name, i, i)
		if _, err := s.Write(context.Background(), name, body, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCatalog(b *testing.B, s contract.SkillStore) {
	fillSkills(b, s, 200)
	ctx := context.Background()
	b.Run("list", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if ms, err := s.List(ctx, contract.SkillQuery{}); err != nil || len(ms) != 200 {
				b.Fatal(len(ms), err)
			}
		}
	})
	b.Run("version-token", func(b *testing.B) {
		v := s.(contract.Versioner)
		for i := 0; i < b.N; i++ {
			if _, err := v.Version(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCatalogFS(b *testing.B) {
	s, err := NewFS(filepath.Join(b.TempDir(), "skills"), nil)
	if err != nil {
		b.Fatal(err)
	}
	benchCatalog(b, s)
}

func BenchmarkCatalogSQLite(b *testing.B) {
	s, err := OpenSQLite(filepath.Join(b.TempDir(), "skills.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	benchCatalog(b, s)
}

// BenchmarkFSGet1000 is one Get by name in a directory of 1,000 skills
// after a listing (the dashboard's pattern: List, then Get each). Before
// the cached name index every Get re-read the whole directory.
func BenchmarkFSGet1000(b *testing.B) {
	s, err := NewFS(filepath.Join(b.TempDir(), "skills"), nil)
	if err != nil {
		b.Fatal(err)
	}
	fillSkills(b, s, 1000)
	ctx := context.Background()
	if _, err := s.List(ctx, contract.SkillQuery{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		name := fmt.Sprintf("skill-%04d", i%1000)
		if r, err := s.Get(ctx, name); err != nil || r == nil {
			b.Fatal(name, err)
		}
		i++
	}
}
