package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSkills generates n typical skills (about 30 lines each) in dir.
func writeSkills(b *testing.B, dir string, n int) int {
	b.Helper()
	lines := 0
	for i := 0; i < n; i++ {
		var s strings.Builder
		fmt.Fprintf(&s, "# Skill: gen-%d\n# Status: Approved\n# Vars: TOPIC=\"t%d\", LIMIT=5\n# Timeout: 30\n\n", i, i)
		s.WriteString("fetch:\n    $ data_read mode=fts query=\"${TOPIC}\" limit=${LIMIT} -> R (fallback: [])\n\n")
		s.WriteString("summarize: needs: fetch\n    $set COUNT = \"${R|length}\"\n    foreach IT in ${R.items}:\n")
		s.WriteString("        if ${IT.summary|contains:\"urgent\"}:\n            emit(text=\"URGENT ${IT.id}\")\n        else:\n            emit(text=\"- ${IT.summary|trim}\")\n")
		s.WriteString("    $ llm prompt=\"Summarize ${COUNT} items about ${TOPIC}\" maxTokens=200 -> SUMMARY (fallback: \"n/a\")\n")
		s.WriteString("    emit(text=\"${SUMMARY}\")\n\ndefault: summarize\n")
		lines += strings.Count(s.String(), "\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("gen-%04d.skill.md", i)), []byte(s.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return lines
}

// BenchmarkCheckDir1000 measures "skillc check" over a directory of 1,000
// generated skills, end to end through the CLI (walk, read, parse, check,
// lint in parallel, JSON report).
func BenchmarkCheckDir1000(b *testing.B) { benchCheckDir(b, 1000) }

// BenchmarkCheckDir10000 is the same over 10,000 skills (issue 17: the
// worker pool keeps every core busy; files/s is the figure to watch).
func BenchmarkCheckDir10000(b *testing.B) { benchCheckDir(b, 10000) }

func benchCheckDir(b *testing.B, n int) {
	dir := b.TempDir()
	lines := writeSkills(b, dir, n)
	b.Setenv("SKILLSCRIPT_HOME", b.TempDir())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"skillc", "check", "--format", "json", dir}, strings.NewReader(""), io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
