package gateway

import (
	"context"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// TestLexiconEntries checks every group of lexicon.txt, one subtest per
// group: each single-word member expands to every other member, and an
// intent made of that member alone finds a skill whose description
// holds only another member (and not a skill holding none).
func TestLexiconEntries(t *testing.T) {
	lx, groups := parseLexicon(lexiconText)
	if len(groups) < 30 {
		t.Fatalf("lexicon has %d groups", len(groups))
	}
	w := DefaultConfig().Weights
	for _, group := range groups {
		t.Run(strings.Join(group, ","), func(t *testing.T) {
			if len(group) < 2 {
				t.Fatalf("a group needs two members: %q", group)
			}
			for i, a := range group {
				if len(words(a)) != 1 {
					continue // phrases are expanded to, not from
				}
				for j, b := range group {
					if i == j {
						continue
					}
					for _, s := range stemAll(words(b)) {
						if s != stem(a) && !contains(lx[stem(a)], s) {
							t.Errorf("%q does not expand to %q (stem %q): %v", a, b, s, lx[stem(a)])
						}
					}
					recs := []*registry.Record{
						{ID: "project/other", Name: "other", Kind: registry.KindPackage, Description: "Nothing in common here."},
						{ID: "project/target", Name: "target", Kind: registry.KindPackage, Description: "Handles " + b + " well."},
					}
					ix, _ := buildIndex(context.Background(), recs, 1, w, analyze)
					hits, _ := ix.search(context.Background(), []string{a}, 10)
					if len(hits) != 1 || hits[0].rec.Name != "target" {
						t.Errorf("intent %q does not find the skill about %q: %v", a, b, hits)
					}
				}
			}
		})
	}
}

// TestStem checks the Snowball stems the index relies on, and the
// acronym plurals it adds.
func TestStem(t *testing.T) {
	for w, want := range map[string]string{"spreadsheets": "spreadsheet", "charts": "chart", "plotting": "plot", "pdfs": "pdf", "csvs": "csv", "prs": "pr", "slides": "slide", "running": "run", "ss": "ss"} {
		if got := stem(w); got != want {
			t.Errorf("stem(%q) = %q, want %q", w, got, want)
		}
	}
}
