package gateway

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// TestPersistedIndex persists the lexical index of the catalog judged
// set in a real file: a second gateway loads it (same ranking, no
// analysis), a catalog whose content changed does not (stale: rebuilt
// and rewritten), and a damaged file is rebuilt.
func TestPersistedIndex(t *testing.T) {
	reg := newRegistry(t, catalogDir)
	file := filepath.Join(t.TempDir(), "gateway.idx")
	ctx := context.Background()
	rank := func(g *Gateway) [][]DiscoverResult {
		var out [][]DiscoverResult
		for _, j := range loadCatalogJudged(t)[:20] {
			resp, err := g.Discover(ctx, DiscoverRequest{Intent: j.Intent})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, resp.Results)
		}
		return out
	}
	built := New(Options{Registry: reg, IndexCache: file})
	want := rank(built)
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no persisted index: %v", err)
	}
	recs := reg.List()
	ix, err := loadIndex(file, fingerprint(recs), recs, 1, DefaultConfig().Weights)
	if err != nil {
		t.Fatalf("the persisted index does not load: %v", err)
	}
	if len(ix.terms) != 0 || len(ix.lazy) != len(built.idx.terms) {
		t.Errorf("loading decoded %d terms' postings (want none until searched), directory of %d terms (want %d)", len(ix.terms), len(ix.lazy), len(built.idx.terms))
	}
	for term := range built.idx.terms {
		ix.postings(term) // decoded on demand, as a search does
	}
	if !reflect.DeepEqual(ix.terms, built.idx.terms) || !reflect.DeepEqual(ix.lens, built.idx.lens) || ix.avg != built.idx.avg {
		t.Errorf("the loaded index differs from the built one")
	}
	if ix.postings("zzz-no-such-term") != nil {
		t.Errorf("a term of no skill has postings")
	}
	loaded := New(Options{Registry: reg, IndexCache: file})
	if got := rank(loaded); !reflect.DeepEqual(got, want) {
		t.Errorf("rankings from the loaded index differ")
	}
	if len(loaded.terms) != 0 {
		t.Errorf("the loaded gateway analysed %d skills", len(loaded.terms))
	}

	// a changed digest makes the file stale
	changed := append([]*registry.Record(nil), recs...)
	cp := *changed[0]
	cp.Digest = "sha256:changed"
	changed[0] = &cp
	if _, err := loadIndex(file, fingerprint(changed), changed, 1, DefaultConfig().Weights); err != errStale {
		t.Errorf("an index of another catalog loaded: %v", err)
	}
	// a damaged file is stale too, and the gateway rebuilds it
	data, _ := os.ReadFile(file)
	if err := os.WriteFile(file, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadIndex(file, fingerprint(recs), recs, 1, DefaultConfig().Weights); err != errStale {
		t.Errorf("a truncated index loaded: %v", err)
	}
	rebuilt := New(Options{Registry: reg, IndexCache: file})
	if got := rank(rebuilt); !reflect.DeepEqual(got, want) {
		t.Errorf("rankings after a rebuild differ")
	}
	if _, err := loadIndex(file, fingerprint(recs), recs, 1, DefaultConfig().Weights); err != nil {
		t.Errorf("the rebuilt index was not rewritten: %v", err)
	}
}
