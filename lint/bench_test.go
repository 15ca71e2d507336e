package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genSkill generates a realistic skill of about lines lines: targets with
// dispatches, loops, conditions, appends, shell and emits.
func genSkill(lines int) []byte {
	var b strings.Builder
	b.WriteString("# Skill: generated\n# Status: Approved\n# Vars: TOPIC=\"ops\", LIMIT=5, ITEMS=[a, b]\n# Output: agent: oncall\n# Timeout: 30\n\n")
	n := 0
	for i := 0; strings.Count(b.String(), "\n") < lines-3; i++ {
		fmt.Fprintf(&b, "t%d:", i)
		if i > 0 {
			fmt.Fprintf(&b, " t%d", i-1)
		}
		fmt.Fprintf(&b, `
    $ data_read mode=fts query="${TOPIC} %d" limit=${LIMIT} -> R%d (fallback: [])
    $set ACC%d = []
    foreach I in ${R%d.items}:
        if ${I.kind|trim} == "urgent" and ${I.score} > 3:
            $append ACC%d ${I.id}
            emit(text="urgent ${I.id}: ${I.summary|fallback:\"-\"}")
        elif ${I.id} not in ${ACC%d}:
            $ llm prompt="Summarize ${I.summary}" maxTokens=50 -> S%d
    shell(argv=["echo", "${TOPIC}"]) -> E%d
`, i, i, i, i, i, i, i, i)
		n = i
	}
	fmt.Fprintf(&b, "\ndefault: t%d\n", n)
	return []byte(b.String())
}

func benchLint(b *testing.B, src []byte) {
	lines := strings.Count(string(src), "\n")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, ds := Check("gen.skill.md", src, nil, Options{}); ds.HasErrors() {
			b.Fatalf("generated skill has errors: %v", ds)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

func BenchmarkLintTypical(b *testing.B) { benchLint(b, genSkill(100)) }
func BenchmarkLint1k(b *testing.B)      { benchLint(b, genSkill(1000)) }
func BenchmarkLintLarge(b *testing.B)   { benchLint(b, genSkill(10000)) }

// BenchmarkLintDir lints a directory of 1,000 generated skills of ~100
// lines each, reading them from disk as the CLI does.
func BenchmarkLintDir(b *testing.B) {
	dir := b.TempDir()
	src := genSkill(100)
	for i := 0; i < 1000; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%04d.skill.md", i)), src, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.skill.md"))
	lines := strings.Count(string(src), "\n") * len(files)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			Check(f, data, nil, Options{})
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

func TestGenSkillIsClean(t *testing.T) {
	src := genSkill(200)
	_, _, ds := Check("gen.skill.md", src, nil, Options{})
	if ds.HasErrors() {
		t.Fatalf("generated skill has errors:\n%v", ds)
	}
}

// benchRun measures the lint engine alone (parse and check done once).
func benchRun(b *testing.B, src []byte) {
	lines := strings.Count(string(src), "\n")
	f, _ := syntaxParse(src)
	info := checkFile(f)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lint(f, info, nil, Options{}, nil)
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

func BenchmarkRunTypical(b *testing.B) { benchRun(b, genSkill(100)) }
func BenchmarkRun1k(b *testing.B)      { benchRun(b, genSkill(1000)) }
func BenchmarkRunLarge(b *testing.B)   { benchRun(b, genSkill(10000)) }
