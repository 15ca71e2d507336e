package datastore

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/skillscript/skillc/eval/contract"
)

// maxLimit caps any query.
const maxLimit = 1000

// Query returns records matching q. With mode "fts" (the default) and a
// non-empty text the records are ranked by BM25, requiring every query
// token first and falling back to any token when that finds nothing; with
// an empty text or mode "recent" they come newest first.
func (s *Store) Query(ctx context.Context, q contract.Query) ([]contract.Record, error) {
	m := s.Manifest(ctx)
	if err := contract.CheckFilters(m, q.Filters, q.PermissiveFilters); err != nil {
		return nil, err
	}
	mode := q.Mode
	if mode == "" {
		mode = "fts"
	}
	if mode != "fts" && mode != "recent" {
		return nil, &contract.UnsupportedModeError{Mode: mode, Supported: m.SupportedModes}
	}
	w, err := s.where(q)
	if err != nil {
		return nil, err
	}
	limit := s.limit(q.Limit)
	tokens := ftsTokens(q.Text)
	if mode == "recent" || len(tokens) == 0 {
		return s.recent(ctx, w, limit)
	}
	recs, err := s.fts(ctx, w, strings.Join(tokens, " AND "), limit)
	if err != nil || len(recs) > 0 || len(tokens) == 1 {
		return recs, err
	}
	return s.fts(ctx, w, strings.Join(tokens, " OR "), limit)
}

func (s *Store) limit(n int) int {
	switch {
	case n <= 0:
		return s.opts.DefaultLimit
	case n > maxLimit:
		return maxLimit
	}
	return n
}

func (s *Store) recent(ctx context.Context, w *where, limit int) ([]contract.Record, error) {
	query := `SELECT ` + recordCols + `, 0 FROM records r WHERE ` + w.sql() + ` ORDER BY r.created_at DESC, r.seq DESC LIMIT ?`
	return s.collect(ctx, query, append(w.args, limit)...)
}

func (s *Store) fts(ctx context.Context, w *where, match string, limit int) ([]contract.Record, error) {
	query := `SELECT ` + recordCols + `, -bm25(records_fts) FROM records_fts JOIN records r ON r.seq = records_fts.rowid
		WHERE records_fts MATCH ? AND ` + w.sql() + ` ORDER BY bm25(records_fts), r.seq DESC LIMIT ?`
	args := append([]any{match}, w.args...)
	return s.collect(ctx, query, append(args, limit)...)
}

func (s *Store) collect(ctx context.Context, query string, args ...any) ([]contract.Record, error) {
	if err := s.init(); err != nil {
		return nil, err
	}
	rows, err := s.opened.Load().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("data store query: %w", err)
	}
	defer rows.Close()
	out := []contract.Record{}
	for rows.Next() {
		rec, err := scanRecord(rows)
		if err != nil {
			return nil, fmt.Errorf("data store query: %w", err)
		}
		out = append(out, *rec)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("data store query: %w", err)
	}
	return out, nil
}

// ftsTokens splits text the way the unicode61 tokenizer does and quotes
// each token, so user text never reaches FTS5 as query syntax.
func ftsTokens(text string) []string {
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := make([]string, 0, len(words))
	seen := map[string]bool{}
	for _, w := range words {
		w = strings.ToLower(w)
		if !seen[w] {
			seen[w] = true
			out = append(out, `"`+w+`"`)
		}
	}
	return out
}

// where accumulates SQL conditions on the records alias r.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

func (w *where) sql() string { return strings.Join(w.conds, " AND ") }

func (s *Store) where(q contract.Query) (*where, error) {
	w := &where{}
	w.add(liveClause, s.opts.Now().UnixMilli())
	domain := append([]string(nil), q.DomainTags...)
	for _, key := range sortedKeys(q.Filters) {
		extra, err := applyFilter(w, key, q.Filters[key])
		if err != nil {
			return nil, err
		}
		domain = append(domain, extra...)
	}
	if len(domain) > 0 {
		w.add(`r.seq IN (SELECT seq FROM record_tags WHERE tag IN (`+placeholders(len(domain))+`))`, toAny(domain)...)
	}
	return w, nil
}

// applyFilter adds the condition for one filter key; domain_tags values are
// returned to be merged with Query.DomainTags.
func applyFilter(w *where, key string, v any) ([]string, error) {
	switch {
	case key == "domain_tags":
		return stringList(key, v)
	case key == "tags":
		tags, err := stringList(key, v)
		for _, t := range tags {
			w.add(`r.seq IN (SELECT seq FROM record_tags WHERE tag = ?)`, t)
		}
		return nil, err
	case key == "recipient":
		r, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("filter recipient: want a string, got %T", v)
		}
		w.add(`r.seq IN (SELECT seq FROM record_recipients WHERE recipient = ?)`, r)
	case key == "created_after" || key == "created_before":
		return nil, timeFilter(w, key, v)
	case strings.HasPrefix(key, "metadata."):
		return nil, metadataFilter(w, strings.TrimPrefix(key, "metadata."), v)
	}
	return nil, nil // undeclared keys only reach here in permissive mode
}

func timeFilter(w *where, key string, v any) error {
	t, err := contract.ExpiryFromValue(v)
	if err != nil || t == nil {
		return fmt.Errorf("filter %s: want a unix or RFC 3339 time, got %v", key, v)
	}
	op := ">"
	if key == "created_before" {
		op = "<"
	}
	w.add("r.created_at "+op+" ?", t.UnixMilli())
	return nil
}

func metadataFilter(w *where, field string, v any) error {
	if strings.ContainsAny(field, `"\`) || field == "" {
		return fmt.Errorf("filter metadata.%s: invalid metadata key", field)
	}
	switch x := v.(type) {
	case bool:
		if x {
			v = 1
		} else {
			v = 0
		}
	case string, int, int64, float64:
	default:
		return fmt.Errorf("filter metadata.%s: want a string, number or boolean, got %T", field, v)
	}
	w.add(`json_extract(r.metadata, ?) = ?`, `$."`+field+`"`, v)
	return nil
}

func stringList(key string, v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case []string:
		return x, nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("filter %s: element %d is %T, not a string", key, i, e)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("filter %s: want a list of strings, got %T", key, v)
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
