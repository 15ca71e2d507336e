package gateway

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The catalog judged set: 70 SKILL.md packages written in the style of
// public ones (document formats, charts, git, testing, web, data,
// design, writing, operations), unclassified like real packages, and
// intents written in a separate pass before the ranking was measured,
// phrased as people ask, with vocabulary that differs from the
// descriptions on purpose and paraphrases of the same needs.
const (
	catalogDir     = "../../../testdata/gateway/catalog"
	catalogIntents = "../../../testdata/gateway/catalog-intents.json"
)

// catalogJudged is one intent with the skills that answer it; any of
// them counts as a hit.
type catalogJudged struct {
	Intent   string   `json:"intent"`
	Relevant []string `json:"relevant"`
}

func loadCatalogJudged(t testing.TB) []catalogJudged { return loadIntents(t, catalogIntents) }

// loadIntents reads a judged set: intents with the skills that answer them.
func loadIntents(t testing.TB, path string) []catalogJudged {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var js []catalogJudged
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatal(err)
	}
	return js
}

// relevanceMetrics computes precision@1 (the top result is relevant)
// and MRR (reciprocal rank of the first relevant result within the
// first 10) over js, and lists the misses.
func relevanceMetrics(js []catalogJudged, rank ranker) (p1, mrr float64, misses []string) {
	for _, j := range js {
		got := rank(j.Intent)
		for i, name := range first(got, 10) {
			if contains(j.Relevant, name) {
				mrr += 1 / float64(i+1)
				if i == 0 {
					p1++
				}
				break
			}
		}
		if len(got) == 0 || !contains(j.Relevant, got[0]) {
			misses = append(misses, j.Intent+" → "+strings.Join(first(got, 3), ", ")+" (want "+strings.Join(j.Relevant, " or ")+")")
		}
	}
	n := float64(len(js))
	return p1 / n, mrr / n, misses
}

// TestCatalogJudgedSet checks the set (at least 60 packages, at least 40
// intents whose relevant skills exist), then prints precision@1 and MRR
// of discover and requires them above a floor a little below what the
// ranking achieves, to catch regressions.
func TestCatalogJudgedSet(t *testing.T) {
	reg := newRegistry(t, catalogDir)
	recs := reg.List()
	if len(recs) < 60 {
		t.Fatalf("catalog judged set too small: %d skills", len(recs))
	}
	js := loadCatalogJudged(t)
	if len(js) < 40 {
		t.Fatalf("only %d judged intents", len(js))
	}
	for _, j := range js {
		for _, e := range j.Relevant {
			if _, ok := reg.Lookup(e); !ok {
				t.Fatalf("intent %q names unknown skill %s", j.Intent, e)
			}
		}
	}
	g := New(Options{Registry: reg})
	defer g.Close()
	p1, mrr, misses := relevanceMetrics(js, gatewayRanker(t, g))
	t.Logf("catalog judged set: %d skills, %d intents: precision@1 %.3f  MRR %.3f", len(recs), len(js), p1, mrr)
	for _, m := range misses {
		t.Logf("miss: %s", m)
	}
	const floorP1, floorMRR = 0.78, 0.82
	if p1 < floorP1 || mrr < floorMRR {
		t.Errorf("ranking regressed on the catalog judged set: precision@1 %.3f (floor %.2f), MRR %.3f (floor %.2f)", p1, floorP1, mrr, floorMRR)
	}
}
