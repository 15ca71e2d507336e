package lsp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// diagKeys renders findings for comparison.
func diagKeys(ds ast.Diagnostics) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s@%d-%d:%s", d.Rule, d.Range.From, d.Range.To, d.Message))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestReparseAgreesWithFullParse applies random one-range edits (some
// breaking the syntax) to a realistic skill and checks that re-parsing the
// edited target gives the findings of parsing the whole text, whenever it
// applies.
func TestReparseAgreesWithFullParse(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { reparseAgreement(t, seed) })
	}
}

// reparseAgreement runs 400 random edits from one seed.
func reparseAgreement(t *testing.T, seed uint64) {
	s := NewServer(Options{Env: func(string) (string, bool) { return "", false }, Home: t.TempDir()})
	u := "untitled:r"
	text := []byte(realisticSkill("main", 300, 5))
	_, parsed := s.parse(u, text)
	inc := incremental{ok: true, parsed: parsed}
	rng := rand.New(rand.NewPCG(seed, 2))
	inserts := []string{"x", "(", "\"", ")", " = ", "\n    emit(text=\"a\"\n", "${", "}", "\n", "    if ${A0} = 1:\n", "\t"}
	applied := 0
	for i := 0; i < 400; i++ {
		at := rng.IntN(len(text))
		del := 0
		if rng.IntN(3) == 0 {
			del = min(rng.IntN(4), len(text)-at)
		}
		ins := inserts[rng.IntN(len(inserts))]
		sp := span{at, at + del, len(ins)}
		next := append(append(append([]byte{}, text[:at]...), ins...), text[at+del:]...)
		inc.spans = []span{sp}
		got, ok := s.reparse(u, next, inc)
		_, want := s.parse(u, next)
		if ok {
			applied++
			if diagKeys(got) != diagKeys(want) {
				t.Fatalf("edit %d (%q at %d, -%d): re-parse\n%s\nfull parse\n%s", i, ins, at, del, diagKeys(got), diagKeys(want))
			}
		}
		text, inc = next, incremental{ok: true, parsed: want}
	}
	t.Logf("re-parse applied to %d of 400 edits", applied)
	if applied < 100 {
		t.Errorf("re-parse applied to %d of 400 edits", applied)
	}
}

// FuzzReparse checks the agreement of TestReparseAgreesWithFullParse on
// arbitrary sources and edits: whenever re-parsing the edited target
// applies, its findings are those of parsing the whole text.
func FuzzReparse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "lsp", "ws", "*.skill.md"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint16(200), uint8(0), "(")
		}
	}
	f.Add([]byte(realisticSkill("f", 60, 2)), uint16(300), uint8(2), "\n    if ${A0} = 1:\n")
	s := NewServer(Options{Env: func(string) (string, bool) { return "", false }, Home: f.TempDir()})
	f.Fuzz(func(t *testing.T, src []byte, at uint16, del uint8, ins string) {
		u := "untitled:fuzz"
		from := int(at) % (len(src) + 1)
		to := min(from+int(del%8), len(src))
		_, before := s.parse(u, src)
		next := append(append(append([]byte{}, src[:from]...), ins...), src[to:]...)
		got, ok := s.reparse(u, next, incremental{ok: true, parsed: before, spans: []span{{from, to, len(ins)}}})
		if !ok {
			return
		}
		if _, want := s.parse(u, next); diagKeys(got) != diagKeys(want) {
			t.Fatalf("re-parse\n%s\nfull parse\n%s", diagKeys(got), diagKeys(want))
		}
	})
}
