package gateway

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// findsOnly reports whether the intent terms find the skill whose
// description is "Handles <member> well." and not a skill sharing
// nothing with it.
func findsOnly(t *testing.T, w Weights, terms []string, member string) bool {
	t.Helper()
	recs := []*registry.Record{
		{ID: "project/qqx", Name: "qqx", Kind: registry.KindPackage, Description: "Nothing in common here."},
		{ID: "project/zzx", Name: "zzx", Kind: registry.KindPackage, Description: "Handles " + member + " well."},
	}
	ix, _ := buildIndex(context.Background(), recs, 1, w, analyze)
	hits, _ := ix.search(context.Background(), terms, 10)
	return len(hits) == 1 && hits[0].rec.Name == "zzx"
}

// intentTerms returns a member's words as the gateway searches them:
// stop words left out.
func intentTerms(member string) []string {
	stop := set(DefaultConfig().StopWords)
	var out []string
	for _, w := range words(member) {
		if !stop[w] {
			out = append(out, w)
		}
	}
	return out
}

// checkMember fails when a member cannot be searched as written: a
// phrase must keep two words once stop words and one-letter words are
// left out (else it would stand for a different single word, "log in"
// for "log").
func checkMember(t *testing.T, m string, stop map[string]bool) {
	t.Helper()
	if n := len(memberStems(m, stop)); n == 0 || (len(words(m)) > 1 && n < 2) {
		t.Errorf("member %q keeps %d searchable words", m, n)
	}
}

// TestLexiconEntries checks every group of lexicon.txt, one subtest per
// group: each single-word member expands to every other member, and an
// intent made of any member (a phrase's words in order) finds a skill
// whose description holds only another member (and not a skill holding
// none).
func TestLexiconEntries(t *testing.T) {
	stop := set(DefaultConfig().StopWords)
	lx, groups := parseLexicon(lexiconText, nil, stop)
	if len(groups) < 300 {
		t.Fatalf("lexicon has %d groups", len(groups))
	}
	w := DefaultConfig().Weights
	for _, group := range groups {
		t.Run(strings.Join(group, ","), func(t *testing.T) {
			if len(group) < 2 {
				t.Fatalf("a group needs two members: %q", group)
			}
			for _, m := range group {
				checkMember(t, m, stop)
			}
			for i, a := range group {
				for j, b := range group {
					if i == j {
						continue
					}
					if len(words(a)) == 1 {
						for _, s := range memberStems(b, stop) {
							if s != stem(a) && !contains(lx.same[stem(a)], s) {
								t.Errorf("%q does not expand to %q (stem %q): %v", a, b, s, lx.same[stem(a)])
							}
						}
					}
					if !findsOnly(t, w, intentTerms(a), b) {
						t.Errorf("intent %q does not find the skill about %q", a, b)
					}
				}
			}
		})
	}
}

// TestRelatedEntries checks every entry of related.txt, one subtest per
// entry: an intent made of any left-hand member finds a skill whose
// description holds only a right-hand member; the relation runs one way
// (a right-hand word does not find a skill about a left-hand one); and
// with the related weight at 0 the entry is off.
func TestRelatedEntries(t *testing.T) {
	stop := set(DefaultConfig().StopWords)
	entries, err := parseRelated(relatedText)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 80 {
		t.Fatalf("related list has %d entries", len(entries))
	}
	w := DefaultConfig().Weights
	off := w
	off.LexiconRelated = 0
	for _, e := range entries {
		t.Run(strings.Join(e.from, ",")+"->"+strings.Join(e.to, ","), func(t *testing.T) {
			for _, m := range append(append([]string{}, e.from...), e.to...) {
				checkMember(t, m, stop)
			}
			for _, a := range e.from {
				for _, b := range e.to {
					if !findsOnly(t, w, intentTerms(a), b) {
						t.Errorf("intent %q does not find the skill about %q", a, b)
					}
					// the one-way and off checks are about related.txt: the
					// lexicon's groups may link the two words by themselves
					if synonyms(w, a, b, stop) {
						continue
					}
					if findsOnly(t, off, intentTerms(a), b) {
						t.Errorf("intent %q finds the skill about %q with lexicon_related 0", a, b)
					}
					if findsOnly(t, w, intentTerms(b), a) && !synonyms(w, b, a, stop) {
						t.Errorf("intent %q finds the skill about %q: the relation must run one way", b, a)
					}
				}
			}
		})
	}
}

// synonyms reports whether the intent terms of a reach a stem of b by
// themselves or through the lexicon's groups alone (not the related
// list).
func synonyms(w Weights, a, b string, stop map[string]bool) bool {
	w.LexiconRelated = 0
	ix := &index{w: w, lex: defaultLexicon()}
	bs := memberStems(b, stop)
	for _, c := range ix.concepts(intentTerms(a)) {
		for _, q := range c {
			for _, s := range append([]string{q.stem}, q.rest...) {
				if contains(bs, s) {
					return true
				}
			}
		}
	}
	return false
}

// TestRelatedWeighsLess checks that a related topic word weighs less
// than the word typed and than a synonym: for "stutter", a skill saying
// stutter ranks first, a skill saying perf (a synonym of performance)
// does not match at all (related words are not expanded again), and a
// skill saying performance is found below the one saying stutter.
func TestRelatedWeighsLess(t *testing.T) {
	recs := []*registry.Record{
		{ID: "project/topic", Name: "topic", Kind: registry.KindPackage, Description: "Performance tuning."},
		{ID: "project/typed", Name: "typed", Kind: registry.KindPackage, Description: "Why scrolling may stutter."},
		{ID: "project/perf", Name: "perf", Kind: registry.KindPackage, Description: "Perf counters."},
		{ID: "project/other", Name: "other", Kind: registry.KindPackage, Description: "Nothing in common."},
	}
	ix, _ := buildIndex(context.Background(), recs, 1, DefaultConfig().Weights, analyze)
	hits, _ := ix.search(context.Background(), []string{"stutter"}, 10)
	var got []string
	for _, h := range hits {
		got = append(got, h.rec.Name)
	}
	if strings.Join(got, " ") != "typed topic" {
		t.Errorf("stutter finds %v, want typed then topic", got)
	}
	// a phrase source needs its words one after the other: "frames"
	// alone, or "dropped" and "frames" apart, is not "dropped frames"
	for terms, want := range map[string]int{"dropped frames": 1, "frames": 0, "dropped video frames": 0} {
		hits, _ := ix.search(context.Background(), strings.Fields(terms), 10)
		n := 0
		for _, h := range hits {
			if h.rec.Name == "topic" {
				n++
			}
		}
		if n != want {
			t.Errorf("%q finds the performance skill %d times, want %d", terms, n, want)
		}
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

// TestPhraseSynonymsMatchWhole checks that a phrase synonym matches only
// a skill holding all of its words: gpu finds the skill about a graphics
// card, not the one about a card alone; and that a phrase's stop words
// are not searched (text to speech does not search "to").
func TestPhraseSynonymsMatchWhole(t *testing.T) {
	recs := []*registry.Record{
		{ID: "project/whole", Name: "whole", Kind: registry.KindPackage, Description: "Picks a graphics card."},
		{ID: "project/part", Name: "part", Kind: registry.KindPackage, Description: "Prints a card."},
		{ID: "project/to", Name: "to", Kind: registry.KindPackage, Description: "Goes to town."},
	}
	ix, _ := buildIndex(context.Background(), recs, 1, DefaultConfig().Weights, analyze)
	for term, want := range map[string]string{"gpu": "whole", "tts": ""} {
		hits, _ := ix.search(context.Background(), []string{term}, 10)
		var got []string
		for _, h := range hits {
			got = append(got, h.rec.Name)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s finds %q, want %q", term, got, want)
		}
	}
}

// TestSynonymIDFShare checks that a synonym commoner than the typed word
// counts at the share of the typed word's IDF its own IDF makes up: for
// "iphone" (one skill) a skill saying only "iOS" (five skills) scores
// idf(iphone) × sat(0.6 × idf(ios)/idf(iphone) × tf), not sat(0.6 × tf).
func TestSynonymIDFShare(t *testing.T) {
	recs := []*registry.Record{{ID: "project/typed", Name: "aa", Kind: registry.KindPackage, Description: "Handles iPhone."}}
	for _, n := range []string{"bb", "cc", "dd", "ee", "ff"} {
		recs = append(recs, &registry.Record{ID: "project/" + n, Name: n, Kind: registry.KindPackage, Description: "Handles iOS."})
	}
	w := DefaultConfig().Weights
	w.BM25Name = 0 // the fields but the description play no part
	ix, _ := buildIndex(context.Background(), recs, 1, w, analyze)
	hits, _ := ix.search(context.Background(), []string{"iphone"}, 10)
	if len(hits) != len(recs) || hits[0].rec.Name != "aa" {
		t.Fatalf("iphone finds %v", hits)
	}
	n := float64(len(recs))
	tf := w.BM25Description // every description has the same length
	q := w.Lexicon * bm25IDF(n, 5) / bm25IDF(n, 1)
	want := bm25IDF(n, 1) * q * tf / (bm25K1 + q*tf)
	if got := hits[1].bm25; math.Abs(got-want) > 1e-9 {
		t.Errorf("the iOS skill scores %v, want %v", got, want)
	}
	if typed := bm25IDF(n, 1) * tf / (bm25K1 + tf); math.Abs(hits[0].bm25-typed) > 1e-9 {
		t.Errorf("the iPhone skill scores %v, want %v", hits[0].bm25, typed)
	}
}
