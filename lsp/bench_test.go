package lsp

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/syntax"
)

// skillOfLines builds a valid skill of about n lines.
func skillOfLines(n int) string {
	var b strings.Builder
	b.WriteString("# Skill: bench\n# Vars: PROJECT=\"INFRA\", LIMIT=5\n# Output: text\n\n")
	lines, t := 4, 0
	for lines < n-3 {
		fmt.Fprintf(&b, "t%d:\n    $ llm prompt=\"Summarize ${PROJECT} part %d\" -> R%d\n    emit(text=\"${R%d|trim}\")\n\n", t, t, t, t)
		lines += 4
		t++
	}
	b.WriteString("default: t0\n")
	return b.String()
}

// benchChange measures didChange → publishDiagnostics for an n-line skill.
func benchChange(b *testing.B, n int) {
	c := newTestClient(b, Options{Debounce: -1})
	c.initialize(b.TempDir())
	u := "untitled:bench"
	text := skillOfLines(n)
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := int32(i + 2)
		c.change(u, int(v), text+strings.Repeat(" ", i%2))
		c.waitDiags(u, atVersion(v))
	}
}

func BenchmarkDidChangeToDiagnostics100(b *testing.B)  { benchChange(b, 100) }
func BenchmarkDidChangeToDiagnostics5000(b *testing.B) { benchChange(b, 5000) }

func BenchmarkCompletion(b *testing.B) {
	c := newTestClient(b, Options{Debounce: -1})
	c.initialize(b.TempDir())
	u := "untitled:bench"
	text := skillOfLines(500) + "\nx:\n    emit(text=\"${\")\n"
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	p := posOf(b, text, `"${"`, 0, 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var list protocol.CompletionList
		c.mustCall("textDocument/completion", docPos(u, p), &list)
	}
}

func BenchmarkHover(b *testing.B) {
	c := newTestClient(b, Options{Debounce: -1})
	c.initialize(b.TempDir())
	u := "untitled:bench"
	text := skillOfLines(500)
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	p := posOf(b, text, "${PROJECT}", 10, 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var h protocol.Hover
		c.mustCall("textDocument/hover", docPos(u, p), &h)
	}
}

// BenchmarkOpenDocuments500 reports the heap held by 500 open, analysed
// 100-line documents.
func BenchmarkOpenDocuments500(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := newTestClient(b, Options{Debounce: -1})
		c.initialize(b.TempDir())
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		text := skillOfLines(100)
		for d := 0; d < 500; d++ {
			c.open(fmt.Sprintf("untitled:doc%d", d), text)
		}
		for d := 0; d < 500; d++ {
			c.waitDiags(fmt.Sprintf("untitled:doc%d", d), atVersion(1))
		}
		time.Sleep(10 * time.Millisecond)
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB/500docs")
	}
}

// benchAnalyze measures the default analysis of a realistic n-line skill
// in a workspace environment (in process, no protocol).
func benchAnalyze(b *testing.B, n int) {
	dir := benchWorkspace(b, 50)
	path := dir + "/main.skill.md"
	src := []byte(realisticSkill("main", n, 50))
	w := newWorkspace(&Options{})
	w.setRoots([]string{dir})
	env, _ := w.env(string(fileURI(path)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		DefaultAnalyzer(path, src, env)
	}
}

func BenchmarkAnalyze1000(b *testing.B) { benchAnalyze(b, 1000) }
func BenchmarkAnalyze5000(b *testing.B) { benchAnalyze(b, 5000) }

// BenchmarkParse1000 measures the parser alone on the same skill.
func BenchmarkParse1000(b *testing.B) {
	src := []byte(realisticSkill("main", 1000, 50))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		syntax.Parse("main.skill.md", src)
	}
}
