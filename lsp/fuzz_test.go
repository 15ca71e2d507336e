package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/skillscript/skillc/ast"
)

// FuzzFeatures runs every per-position feature over arbitrary sources and
// cursor offsets: none may panic, and positions must round-trip.
func FuzzFeatures(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "lsp", "ws", "*.skill.md"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint16(40))
		}
	}
	f.Add([]byte("t:\n    emit(text=\"😀${A|tr\")\n"), uint16(20))
	f.Fuzz(func(t *testing.T, src []byte, at uint16) {
		lines := ast.NewLineTable(src)
		env := emptyEnv()
		snap := &snapshot{uri: "untitled:fuzz", src: src, lines: lines, env: env, Analysis: frontEnd("fuzz", src, env)}
		off := int(at) % (len(src) + 1)
		for off > 0 && off < len(src) && !utf8.RuneStart(src[off]) {
			off-- // the front end only produces offsets at rune starts
		}
		pos := lspPosition(lines, off)
		if back := byteOffset(lines, pos); back > off {
			t.Fatalf("offset %d -> %+v -> %d", off, pos, back)
		}
		sym := snap.symbolAt(off)
		_ = snap.hoverText(sym)
		_ = snap.complete(off)
		_ = snap.occurrences(sym)
		_ = encodeTokens(lines, snap.tokens())
		_, _, _ = snap.callAt(off)
	})
}
