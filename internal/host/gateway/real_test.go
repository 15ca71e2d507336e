package gateway

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// The real judged set: 127 public SKILL.md packages (npm
// claude-code-skills@0.5.0, bytes unchanged; testdata/gateway/real/
// NOTICE) and intents written by another engineer than the one tuning
// the ranking, without seeing it, naming the relevant package
// directories.
const (
	realSkillsDir = "../../../testdata/gateway/real/skills"
	realIntents   = "../../../testdata/gateway/real/intents.json"
)

// loadRealJudged reads the real intents as they are written (relevant
// skills named by package directory).
func loadRealJudged(t testing.TB) []catalogJudged { return loadIntents(t, realIntents) }

// byDirectory maps the judged set's directory names to the names of the
// skills the registry loaded from them (31 packages carry a frontmatter
// name that differs from their directory). A directory whose package
// does not load keeps its directory name, which then matches nothing.
func byDirectory(reg *registry.Registry, js []catalogJudged) []catalogJudged {
	names := map[string]string{}
	for _, rec := range reg.List() {
		names[filepath.Base(filepath.Dir(rec.Location))] = rec.Name
	}
	out := make([]catalogJudged, len(js))
	for i, j := range js {
		out[i].Intent = j.Intent
		for _, d := range j.Relevant {
			if n, ok := names[d]; ok {
				d = n
			}
			out[i].Relevant = append(out[i].Relevant, d)
		}
	}
	return out
}

// checkRealIntents fails the test for an intent that names no skill or
// names something that is not a package directory of the real set.
func checkRealIntents(t *testing.T, js []catalogJudged) {
	t.Helper()
	for _, j := range js {
		if len(j.Relevant) == 0 {
			t.Errorf("intent %q names no skill", j.Intent)
		}
		for _, d := range j.Relevant {
			if _, err := os.Stat(filepath.Join(realSkillsDir, d, "SKILL.md")); err != nil {
				t.Errorf("intent %q names %s, which is not a package directory of the set", j.Intent, d)
			}
		}
	}
}

// halves splits the judged intents deterministically: dev holds the
// even positions of the file, held-out the odd ones. Ranking changes are
// made looking at dev misses only.
func halves(js []catalogJudged) (dev, held []catalogJudged) {
	for i, j := range js {
		if i%2 == 0 {
			dev = append(dev, j)
		} else {
			held = append(held, j)
		}
	}
	return dev, held
}

// plainBM25Ranker is the baseline: Okapi BM25 (k1 1.2, b 0.75)
// over one field, the name's words and the description, lower-cased
// words without stemming, stop words, synonyms or tiers (the IDF alone
// discounts common words).
func plainBM25Ranker(reg *registry.Registry) ranker {
	recs := reg.List()
	docs := make([]map[string]int, len(recs))
	lens := make([]float64, len(recs))
	df := map[string]int{}
	total := 0.0
	for i, rec := range recs {
		docs[i] = map[string]int{}
		ws := words(splitName(rec.Name) + " " + rec.Description)
		for _, w := range ws {
			if docs[i][w] == 0 {
				df[w]++
			}
			docs[i][w]++
		}
		lens[i] = float64(len(ws))
		total += lens[i]
	}
	avg := total / float64(max(len(recs), 1))
	n := float64(len(recs))
	return func(intent string) []string {
		type scored struct {
			name string
			s    float64
		}
		var terms []string
		for _, w := range words(intent) {
			if !contains(terms, w) {
				terms = append(terms, w)
			}
		}
		var out []scored
		for i, rec := range recs {
			s := 0.0
			for _, t := range terms {
				tf := float64(docs[i][t])
				if tf == 0 {
					continue
				}
				idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
				s += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*lens[i]/avg))
			}
			if s > 0 {
				out = append(out, scored{rec.Name, s})
			}
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].s != out[j].s {
				return out[i].s > out[j].s
			}
			return out[i].name < out[j].name
		})
		names := make([]string, len(out))
		for i, s := range out {
			names[i] = s.name
		}
		return names
	}
}

// TestRealJudgedSet measures discover on the real judged set: the set is
// checked (every intent names existing package directories), then
// precision@1 and MRR are printed for all intents, the dev half and the
// held-out half, next to the plain BM25 baseline over name+description,
// with one line per miss of discover. Floors a little below the
// measured figures catch regressions.
func TestRealJudgedSet(t *testing.T) {
	reg := newRegistry(t, realSkillsDir)
	recs := reg.List()
	if len(recs) < 120 {
		t.Fatalf("real judged set too small: %d skills", len(recs))
	}
	raw := loadRealJudged(t)
	if len(raw) < 40 {
		t.Fatalf("only %d judged intents", len(raw))
	}
	checkRealIntents(t, raw)
	js := byDirectory(reg, raw)
	dev, held := halves(js)
	g := New(Options{Registry: reg})
	defer g.Close()
	gw, base := gatewayRanker(t, g), plainBM25Ranker(reg)
	type figures struct{ p1, mrr float64 }
	measure := func(set []catalogJudged, rank ranker) (figures, []string) {
		p1, mrr, misses := relevanceMetrics(set, rank)
		return figures{p1, mrr}, misses
	}
	all, misses := measure(js, gw)
	d, _ := measure(dev, gw)
	h, _ := measure(held, gw)
	ball, _ := measure(js, base)
	bd, _ := measure(dev, base)
	bh, _ := measure(held, base)
	t.Logf("real judged set: %d skills, %d intents (dev %d, held-out %d)", len(recs), len(js), len(dev), len(held))
	t.Logf("discover:   all p@1 %.3f MRR %.3f | dev p@1 %.3f MRR %.3f | held-out p@1 %.3f MRR %.3f", all.p1, all.mrr, d.p1, d.mrr, h.p1, h.mrr)
	t.Logf("plain BM25: all p@1 %.3f MRR %.3f | dev p@1 %.3f MRR %.3f | held-out p@1 %.3f MRR %.3f", ball.p1, ball.mrr, bd.p1, bd.mrr, bh.p1, bh.mrr)
	half := map[string]string{}
	for _, j := range dev {
		half[j.Intent] = "dev"
	}
	for _, j := range held {
		half[j.Intent] = "held-out"
	}
	for _, m := range misses {
		intent, _, _ := strings.Cut(m, " → ")
		t.Logf("miss (%s): %s", half[intent], m)
	}
	const floorP1, floorMRR = 0.75, 0.82
	if all.p1 < floorP1 || all.mrr < floorMRR {
		t.Errorf("ranking regressed on the real judged set: precision@1 %.3f (floor %.2f), MRR %.3f (floor %.2f)", all.p1, floorP1, all.mrr, floorMRR)
	}
}
