package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

// smallSkill is one source of a folder of small skills, with the
// environment of its directory.
type smallSkill struct {
	path string
	src  []byte
	env  *Env
}

// loadSmallSkills reads every .skill.md under roots and loads one
// environment per directory, the way `skillc check DIR` does (the skill's
// own directory is the default skill store). Missing roots are skipped.
func loadSmallSkills(b *testing.B, roots ...string) []smallSkill {
	b.Helper()
	home := b.TempDir()
	envs := map[string]*Env{}
	var out []smallSkill
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".skill.md") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			dir := filepath.Dir(path)
			env := envs[dir]
			if env == nil {
				env = Load(dir, LoadOptions{Home: home, DefaultSkillsDir: dir})
				envs[dir] = env
			}
			out = append(out, smallSkill{path: path, src: src, env: env})
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// benchSmallSkills compiles (parse, checker, default rule set) every skill
// of the folders per op, as `skillc check` does per file; environments are
// loaded once, outside the timing (configuration discovery is not
// per-file work).
func benchSmallSkills(b *testing.B, roots ...string) {
	skills := loadSmallSkills(b, roots...)
	if len(skills) == 0 {
		b.Skip("no skills under", roots)
	}
	findings := 0
	for _, s := range skills {
		findings += len(s.env.Compile(s.path, s.src).Diags)
	}
	if findings == 0 {
		b.Fatal("no findings over the corpus: the rules did not run")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range skills {
			s.env.Compile(s.path, s.src)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(skills)), "ns/file")
}

// BenchmarkCompileSmallTestdata is the per-file cost of checking the
// repository's corpus and examples (small skills).
func BenchmarkCompileSmallTestdata(b *testing.B) {
	benchSmallSkills(b, "../../testdata/corpus", "../../testdata/examples")
}

// BenchmarkCompileSmallShared is the same over the shared conformance
// corpus (corpus/ of the shared directory beside the checkout, or of
// $SKILLSCRIPT_SHARED), skipped where it is absent.
func BenchmarkCompileSmallShared(b *testing.B) {
	dir, ok := testcorpus.SharedIfPresent(b, "corpus")
	if !ok {
		b.Skipf("SKIPPED: %s not found (put the shared directory beside the checkout or set %s)", dir, testcorpus.SharedEnv)
	}
	benchSmallSkills(b, dir)
}
