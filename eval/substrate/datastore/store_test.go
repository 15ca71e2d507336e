package datastore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/contract/conformance"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sub", "data.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	conformance.TestDataStore(t, func(t *testing.T) contract.DataStore { return openTemp(t) })
}

func TestReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var ids []string
	for i := 0; i < 50; i++ {
		res, err := s.Write(ctx, contract.WriteRequest{Content: fmt.Sprintf("note %d about kiwis", i), Tags: []string{"fruit"}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for _, id := range ids {
		if rec, err := s2.Get(ctx, id); err != nil || rec == nil {
			t.Fatalf("after reopen Get(%s) = %v, %v", id, rec, err)
		}
	}
	recs, err := s2.Query(ctx, contract.Query{Text: "kiwis", Limit: 100})
	if err != nil || len(recs) != 50 {
		t.Errorf("after reopen FTS found %d, %v; want 50", len(recs), err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	// Two independent handles model two processes sharing the file.
	a, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		s := a
		if w%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func(w int, s *Store) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, err := s.Write(context.Background(), contract.WriteRequest{Content: fmt.Sprintf("w%d i%d", w, i), Tags: []string{"conc"}}); err != nil {
					errs <- err
				}
			}
		}(w, s)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent write failed: %v", err)
	}
	recs, err := a.Query(context.Background(), contract.Query{DomainTags: []string{"conc"}, Limit: 1000})
	if err != nil || len(recs) != workers*each {
		t.Errorf("found %d records, %v; want %d", len(recs), err, workers*each)
	}
}

func TestFilters(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := now
	s, err := Open(filepath.Join(t.TempDir(), "d.db"), Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	w := func(content string, tags, recips []string, meta map[string]any) string {
		res, err := s.Write(ctx, contract.WriteRequest{Content: content, Tags: tags, Recipients: recips, Metadata: meta})
		if err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Minute)
		return res.ID
	}
	a := w("alpha report", []string{"ops", "eu"}, []string{"alice"}, map[string]any{"sev": 1, "team": "core", "hot": true})
	b := w("beta report", []string{"ops"}, []string{"bob"}, map[string]any{"sev": 2, "team": "core"})
	c := w("gamma report", []string{"eu"}, nil, map[string]any{"team": "edge"})
	tests := []struct {
		name    string
		filters map[string]any
		want    []string
	}{
		{"recipient", map[string]any{"recipient": "alice"}, []string{a}},
		{"tags all-of", map[string]any{"tags": []any{"ops", "eu"}}, []string{a}},
		{"domain_tags any-of via filter", map[string]any{"domain_tags": []any{"eu"}}, []string{c, a}},
		{"metadata string", map[string]any{"metadata.team": "core"}, []string{b, a}},
		{"metadata number", map[string]any{"metadata.sev": 2}, []string{b}},
		{"metadata bool", map[string]any{"metadata.hot": true}, []string{a}},
		{"created_after", map[string]any{"created_after": now.Add(30 * time.Second).Format(time.RFC3339)}, []string{c, b}},
		{"created_before unix", map[string]any{"created_before": float64(now.Add(90 * time.Second).Unix())}, []string{b, a}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := s.Query(ctx, contract.Query{Filters: tc.filters})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, r.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v (newest first)", got, tc.want)
			}
		})
	}
	if _, err := s.Query(ctx, contract.Query{Filters: map[string]any{"recipient": 3}}); err == nil {
		t.Error("bad filter value should fail")
	}
}

func TestFTSRankingAndFallback(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	both, _ := s.Write(ctx, contract.WriteRequest{Content: "customer feedback about billing"})
	one, _ := s.Write(ctx, contract.WriteRequest{Content: "customer praise"})
	recs, err := s.Query(ctx, contract.Query{Text: "customer billing"})
	if err != nil || len(recs) != 1 || recs[0].ID != both.ID {
		t.Errorf("AND query = %+v, %v", recs, err)
	}
	recs, err = s.Query(ctx, contract.Query{Text: "praise billing"})
	if err != nil || len(recs) != 2 || recs[0].Score <= 0 {
		t.Errorf("OR fallback = %+v, %v", recs, err)
	}
	_ = one
	// FTS syntax in user text is treated as words, never as query syntax.
	for _, q := range []string{`"unbalanced`, "a OR NOT b", "col:val*", "(", "-"} {
		if _, err := s.Query(ctx, contract.Query{Text: q}); err != nil {
			t.Errorf("Query(%q) failed: %v", q, err)
		}
	}
	if _, err := s.Query(ctx, contract.Query{Mode: "semantic", Text: "x"}); !errors.As(err, new(*contract.UnsupportedModeError)) {
		t.Errorf("semantic mode err = %v", err)
	}
	recent, err := s.Query(ctx, contract.Query{Mode: "recent", Limit: 1})
	if err != nil || len(recent) != 1 || recent[0].ID != one.ID {
		t.Errorf("recent = %+v, %v", recent, err)
	}
}

func FuzzQueryText(f *testing.F) {
	for _, seed := range []string{"hello world", `"quoted"`, "a AND b", "x*", "NEAR(a b)", "ünïcode 日本"} {
		f.Add(seed)
	}
	dir := f.TempDir()
	s, err := Open(filepath.Join(dir, "fuzz.db"), Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	s.Write(context.Background(), contract.WriteRequest{Content: "hello world of data"})
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := s.Query(context.Background(), contract.Query{Text: text}); err != nil {
			t.Fatalf("Query(%q): %v", text, err)
		}
	})
}

// A store that is opened and closed without a data op sets up nothing
// (no database/sql handle, no file, issue 25); its first op opens the
// file, and Close closes it.
func TestStoreOpensOnFirstUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "data.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.opened.Load() != nil {
		t.Error("Open set up the database handle")
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close of an unused store: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an unused store made its file: %v", err)
	}
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Write(ctx, contract.WriteRequest{Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the first write made no file: %v", err)
	}
	if err := s.HealthCheck(ctx); err != nil {
		t.Error(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "x"); err == nil {
		t.Error("a closed store answered")
	}
}
