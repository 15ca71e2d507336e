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

// TestBodyField checks the body field: a word only in a package's body
// finds it, below a package that has the word in its description; words
// past maxBodyWords are not indexed; a skillscript's body (its source)
// is not a field.
func TestBodyField(t *testing.T) {
	filler := strings.Repeat("step ", maxBodyWords)
	recs := []*registry.Record{
		withBody(&registry.Record{ID: "project/body", Name: "body", Kind: registry.KindPackage, Description: "Finds leaks."}, "# Leaks\n\nFinds leaks in apps.\n\n## Causes\n\nWhen deinit is never called, look for a retain cycle.\n"),
		{ID: "project/desc", Name: "desc", Kind: registry.KindPackage, Description: "Explains why deinit is never called."},
		withBody(&registry.Record{ID: "project/late", Name: "late", Kind: registry.KindPackage, Description: "Long."}, "Long.\n\n"+filler+"deinit\n"),
		withBody(&registry.Record{ID: "project/script", Name: "script", Kind: registry.KindScript, Description: "A script."}, "deinit\n"),
		withBody(&registry.Record{ID: "project/other", Name: "other", Kind: registry.KindPackage, Description: "Nothing in common."}, "Nothing here either.\n"),
	}
	ix, _ := buildIndex(context.Background(), recs, 1, DefaultConfig().Weights, analyze)
	hits, _ := ix.search(context.Background(), []string{"deinit"}, 10)
	var got []string
	for _, h := range hits {
		got = append(got, h.rec.Name)
	}
	if strings.Join(got, " ") != "desc body" {
		t.Errorf("deinit finds %q, want desc then body", got)
	}
	// a weight of 0 turns the field off: the body-only match goes away
	w := DefaultConfig().Weights
	w.BM25Body = 0
	ix, _ = buildIndex(context.Background(), recs, 1, w, analyze)
	if hits, _ := ix.search(context.Background(), []string{"retain", "cycle"}, 10); len(hits) != 0 {
		t.Errorf("bm25_body 0 still matches the body: %v", hits)
	}
}

// TestStopWords checks that the contraction fragments and function words
// of conversational intents are not searched.
func TestStopWords(t *testing.T) {
	g := New(Options{Registry: registry.New(registry.Options{})})
	in := g.parseIntent("my site doesn't show up on Google, what am I missing?")
	if got := strings.Join(in.terms, " "); got != "site show google missing" {
		t.Errorf("terms %q", got)
	}
	// us is a pronoun like me, we and our
	in = g.parseIntent("write posts that sound like us")
	if got := strings.Join(in.terms, " "); got != "write posts sound like" {
		t.Errorf("terms %q", got)
	}
}

// TestFirstWords checks that firstWords splits like words and stops at n.
func TestFirstWords(t *testing.T) {
	for _, s := range []string{"", "one", "Ünïcode-Wörds, 42 x_y\n## Head\r\nend", "  lead and trail  ", strings.Repeat("ab cd ", 50)} {
		want := words(s)
		for _, n := range []int{0, 1, 3, 1000} {
			got := firstWords(s, n)
			if len(want) > n {
				want := want[:n]
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("firstWords(%q, %d) = %q, want %q", s, n, got, want)
				}
			} else if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("firstWords(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}

// TestFrontmatterTags checks that a package's top-level tags (a list or
// a string; the Claude Code convention) are indexed with its
// metadata.tags.
func TestFrontmatterTags(t *testing.T) {
	recs := []*registry.Record{
		withFrontmatter(&registry.Record{ID: "project/list", Name: "list", Kind: registry.KindPackage, Description: "Trains models."}, map[string]any{"tags": []any{"Distributed Training", 3}}),
		withFrontmatter(&registry.Record{ID: "project/str", Name: "str", Kind: registry.KindPackage, Description: "Serves models."}, map[string]any{"tags": "inference, vLLM"}),
		{ID: "project/none", Name: "none", Kind: registry.KindPackage, Description: "Nothing in common."},
	}
	ix, _ := buildIndex(context.Background(), recs, 1, DefaultConfig().Weights, analyze)
	for term, want := range map[string]string{"distributed": "list", "vllm": "str"} {
		hits, _ := ix.search(context.Background(), []string{term}, 10)
		if len(hits) != 1 || hits[0].rec.Name != want {
			t.Errorf("%s finds %v, want %s", term, hits, want)
		}
	}
}

// TestSynonymsCountOnce checks that an intent word and its lexicon
// synonyms count as one term: a skill naming four synonyms of one intent
// word ranks below a skill matching two intent words, and a skill with
// a rare synonym ranks below one with the (commoner) word typed.
func TestSynonymsCountOnce(t *testing.T) {
	w := DefaultConfig().Weights
	search := func(recs []*registry.Record, terms ...string) []string {
		t.Helper()
		ix, _ := buildIndex(context.Background(), recs, 1, w, analyze)
		hits, _ := ix.search(context.Background(), terms, 10)
		var got []string
		for _, h := range hits {
			got = append(got, h.rec.Name)
		}
		return got
	}
	pkg := func(name, desc string) *registry.Record {
		return &registry.Record{ID: "project/" + name, Name: name, Kind: registry.KindPackage, Description: desc}
	}
	// accessibility, a11y, wcag, screen reader: one concept
	got := search([]*registry.Record{
		pkg("many", "Accessibility, a11y and WCAG checks with a screen reader."),
		pkg("both", "Accessibility of a signup form, checked."),
		pkg("forms", "Builds a form."),
		pkg("other", "Nothing in common."),
	}, "accessibility", "form")
	if len(got) < 2 || got[0] != "both" {
		t.Errorf("accessibility form ranks %v, want both first", got)
	}
	// animated is common, its synonym gif rare: the typed word still wins
	got = search([]*registry.Record{
		pkg("gif", "Makes a GIF of a product."),
		pkg("typed", "Makes an animated product."),
		pkg("a", "Animated charts."),
		pkg("b", "Animated logos."),
		pkg("c", "Animated maps."),
	}, "animated", "product")
	if len(got) < 2 || got[0] != "typed" || got[1] != "gif" {
		t.Errorf("animated product ranks %v, want typed then gif", got)
	}
	// a synonym still bridges when the typed word is absent from the
	// catalog
	got = search([]*registry.Record{pkg("sheet", "Edits an Excel workbook."), pkg("other", "Nothing in common.")}, "spreadsheet")
	if len(got) != 1 || got[0] != "sheet" {
		t.Errorf("spreadsheet finds %v, want sheet", got)
	}
}
