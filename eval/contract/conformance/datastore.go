package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// TestDataStore runs the DataStore conformance suite.
func TestDataStore(t *testing.T, newStore func(t *testing.T) contract.DataStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, contract.DataStore)
	}{
		{"WriteGetRoundTrip", dsRoundTrip},
		{"GetMissIsNil", dsGetMiss},
		{"QueryNoMatchIsEmpty", dsQueryEmpty},
		{"QueryFindsWrittenText", dsQueryText},
		{"DomainTagsExactAnyOf", dsDomainTags},
		{"LimitHonoured", dsLimit},
		{"UnsupportedFilter", dsUnsupportedFilter},
		{"ExpiredRecordsHidden", dsExpired},
		{"SummaryIsFirstLine", dsSummary},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

func marker(t *testing.T) string {
	return fmt.Sprintf("mk%d", time.Now().UnixNano())
}

func mustWrite(t *testing.T, s contract.DataStore, req contract.WriteRequest) contract.WriteResult {
	t.Helper()
	res, err := s.Write(context.Background(), req)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	if res.ID == "" {
		t.Fatal("Write returned an empty id")
	}
	return res
}

func dsRoundTrip(t *testing.T, s contract.DataStore) {
	content := "first line " + marker(t) + "\nsecond line"
	res := mustWrite(t, s, contract.WriteRequest{Content: content, Tags: []string{"a", "b"}, Metadata: map[string]any{"k": "v"}})
	rec, err := s.Get(context.Background(), res.ID)
	if err != nil || rec == nil {
		t.Fatalf("Get(%s) = %v, %v", res.ID, rec, err)
	}
	if rec.ID != res.ID || rec.Detail != content || !strings.HasPrefix(rec.Summary, "first line") || strings.Contains(rec.Summary, "second") {
		t.Errorf("record = %+v", rec)
	}
	if strings.Join(rec.Tags, ",") != "a,b" || rec.Metadata["k"] != "v" {
		t.Errorf("tags/metadata = %v %v", rec.Tags, rec.Metadata)
	}
	if rec.ExpiresAt != nil {
		t.Errorf("durable record has expiry %v", rec.ExpiresAt)
	}
	m := rec.Map()
	if m["id"] != res.ID || m["detail"] != content {
		t.Errorf("Map() = %v", m)
	}
}

func dsGetMiss(t *testing.T, s contract.DataStore) {
	rec, err := s.Get(context.Background(), "no-such-id-"+marker(t))
	if rec != nil || err != nil {
		t.Errorf("Get(miss) = %v, %v; want nil, nil", rec, err)
	}
}

func dsQueryEmpty(t *testing.T, s contract.DataStore) {
	recs, err := s.Query(context.Background(), contract.Query{Mode: "fts", Text: "zzqx" + marker(t)})
	if err != nil || len(recs) != 0 {
		t.Errorf("Query(no match) = %v, %v; want empty, nil", recs, err)
	}
}

func dsQueryText(t *testing.T, s contract.DataStore) {
	mk := marker(t)
	res := mustWrite(t, s, contract.WriteRequest{Content: mk + " adopter probe record"})
	mustWrite(t, s, contract.WriteRequest{Content: "unrelated content"})
	recs, err := s.Query(context.Background(), contract.Query{Mode: "fts", Text: mk, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].ID != res.ID {
		t.Errorf("Query(%s) = %+v; want exactly the written record", mk, recs)
	}
}

func dsDomainTags(t *testing.T, s contract.DataStore) {
	mk := marker(t)
	a := mustWrite(t, s, contract.WriteRequest{Content: "one", Tags: []string{mk + "-a"}})
	b := mustWrite(t, s, contract.WriteRequest{Content: "two", Tags: []string{mk + "-b", "x"}})
	mustWrite(t, s, contract.WriteRequest{Content: "three", Tags: []string{mk + "-c"}})
	mustWrite(t, s, contract.WriteRequest{Content: "four", Tags: []string{mk}})
	recs, err := s.Query(context.Background(), contract.Query{DomainTags: []string{mk + "-a", mk + "-b"}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := idSet(recs); len(got) != 2 || !got[a.ID] || !got[b.ID] {
		t.Errorf("domain_tags query = %v; want exactly %s and %s", got, a.ID, b.ID)
	}
}

func idSet(recs []contract.Record) map[string]bool {
	m := map[string]bool{}
	for _, r := range recs {
		m[r.ID] = true
	}
	return m
}

func dsLimit(t *testing.T, s contract.DataStore) {
	mk := marker(t)
	for i := 0; i < 5; i++ {
		mustWrite(t, s, contract.WriteRequest{Content: fmt.Sprintf("%s item %d", mk, i), Tags: []string{mk}})
	}
	recs, err := s.Query(context.Background(), contract.Query{DomainTags: []string{mk}, Limit: 3})
	if err != nil || len(recs) != 3 {
		t.Errorf("Query(limit 3) = %d records, %v", len(recs), err)
	}
}

func dsUnsupportedFilter(t *testing.T, s contract.DataStore) {
	key := "vault_" + marker(t)
	_, err := s.Query(context.Background(), contract.Query{Text: "x", Filters: map[string]any{key: "team"}})
	var ufe *contract.UnsupportedFilterError
	if !errors.As(err, &ufe) || len(ufe.Keys) != 1 || ufe.Keys[0] != key {
		t.Errorf("undeclared filter: err = %v; want *UnsupportedFilterError naming %s", err, key)
	}
	if _, err := s.Query(context.Background(), contract.Query{Text: "x", Filters: map[string]any{key: "team"}, PermissiveFilters: true}); err != nil {
		t.Errorf("permissive query failed: %v", err)
	}
	for _, f := range s.Manifest(context.Background()).SupportedFilters {
		if f == key {
			t.Errorf("manifest declares the random key %s", key)
		}
	}
}

func dsExpired(t *testing.T, s contract.DataStore) {
	mk := marker(t)
	past := time.Now().Add(-time.Hour)
	future := time.Now().Add(time.Hour)
	old := mustWrite(t, s, contract.WriteRequest{Content: mk + " stale", Tags: []string{mk}, ExpiresAt: &past})
	live := mustWrite(t, s, contract.WriteRequest{Content: mk + " fresh", Tags: []string{mk}, ExpiresAt: &future})
	if rec, err := s.Get(context.Background(), old.ID); rec != nil || err != nil {
		t.Errorf("Get(expired) = %v, %v; want nil, nil", rec, err)
	}
	recs, err := s.Query(context.Background(), contract.Query{DomainTags: []string{mk}})
	if err != nil || len(recs) != 1 || recs[0].ID != live.ID || recs[0].ExpiresAt == nil {
		t.Errorf("Query = %+v, %v; want only the live record with its expiry", recs, err)
	}
}

func dsSummary(t *testing.T, s contract.DataStore) {
	long := strings.Repeat("é", 250)
	res := mustWrite(t, s, contract.WriteRequest{Content: long + "\nrest"})
	rec, err := s.Get(context.Background(), res.ID)
	if err != nil || rec == nil {
		t.Fatalf("Get = %v, %v", rec, err)
	}
	if n := len([]rune(rec.Summary)); n != contract.SummaryLimit {
		t.Errorf("summary has %d characters, want %d", n, contract.SummaryLimit)
	}
}
