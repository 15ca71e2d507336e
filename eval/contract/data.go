package contract

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// SummaryLimit is the maximum length, in characters, of a record summary.
const SummaryLimit = 200

// WriteRequest is one DataStore.Write call (the `$ data_write` kwargs).
type WriteRequest struct {
	Content    string
	Tags       []string
	Metadata   map[string]any
	Recipients []string
	// ExpiresAt is the record's expiry; nil means durable (the sqlite store
	// is durable by default, so nil and an explicit null are the same).
	ExpiresAt *time.Time
}

// WriteResult acknowledges a write.
type WriteResult struct {
	ID        string
	CreatedAt time.Time
}

// Map returns the result as a skill value: {id, created_at}.
func (w WriteResult) Map() map[string]any {
	return map[string]any{"id": w.ID, "created_at": formatTime(w.CreatedAt)}
}

// Query is one DataStore.Query call (the `$ data_read` kwargs).
type Query struct {
	// Mode is the retrieval mode ("fts" when empty).
	Mode string
	// Text is the query text; empty lists the most recent records.
	Text string
	// Limit caps the number of records; 0 means the store's default.
	Limit int
	// DomainTags keeps records carrying at least one of these tags exactly.
	DomainTags []string
	// Filters are substrate filters; every key must be declared in the
	// store's manifest unless PermissiveFilters is set.
	Filters map[string]any
	// MinConfidence drops records scoring below it when the store scores.
	MinConfidence float64
	// PermissiveFilters makes unknown filter keys advisory instead of an
	// UnsupportedFilterError.
	PermissiveFilters bool
}

// Record is the portable shape of a stored datum (PortableData).
type Record struct {
	ID         string
	Summary    string // first line of the content, at most SummaryLimit characters
	Detail     string // the full content
	Tags       []string
	Metadata   map[string]any
	Recipients []string
	CreatedAt  time.Time
	ExpiresAt  *time.Time
	Score      float64 // relevance when the query ranked results, else 0
}

// Map returns the record as a skill value with the keys id, summary,
// detail, content, tags, metadata, recipients, created_at, expires_at and
// score. Times are RFC 3339 strings; expires_at is nil for durable records.
func (r Record) Map() map[string]any {
	var exp any
	if r.ExpiresAt != nil {
		exp = formatTime(*r.ExpiresAt)
	}
	meta := r.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	return map[string]any{
		"id":         r.ID,
		"summary":    r.Summary,
		"detail":     r.Detail,
		"content":    r.Detail,
		"tags":       stringsToAny(r.Tags),
		"metadata":   meta,
		"recipients": stringsToAny(r.Recipients),
		"created_at": formatTime(r.CreatedAt),
		"expires_at": exp,
		"score":      r.Score,
	}
}

// RecordsValue returns records as a skill value: a list of Record.Map.
func RecordsValue(rs []Record) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		out[i] = r.Map()
	}
	return out
}

// Summarize returns the summary convention for content: its first line,
// trimmed, cut to SummaryLimit characters.
func Summarize(content string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(content, "\r\n"), "\n")
	line = strings.TrimRight(line, "\r \t")
	if r := []rune(line); len(r) > SummaryLimit {
		line = string(r[:SummaryLimit])
	}
	return line
}

// DataManifest describes what a DataStore supports.
type DataManifest struct {
	Implementation string
	// SupportedModes lists the accepted Query.Mode values.
	SupportedModes []string
	// SupportedFilters lists the accepted Query.Filters keys. An entry
	// ending in ".*" accepts every key with that prefix.
	SupportedFilters  []string
	SupportsWrites    bool
	SupportsTagFilter bool
	SupportsSemantic  bool
}

// DataStore is the contract behind `$ data_read` / `$ data_write`.
type DataStore interface {
	// Write stores a record and returns its id.
	Write(ctx context.Context, req WriteRequest) (WriteResult, error)
	// Query returns matching records; no match is an empty slice, not an
	// error.
	Query(ctx context.Context, q Query) ([]Record, error)
	// Get returns the record with id, or nil, nil when there is none.
	Get(ctx context.Context, id string) (*Record, error)
	// Manifest reports the store's capabilities.
	Manifest(ctx context.Context) DataManifest
}

// UnsupportedFilterError reports filter keys a store did not declare.
type UnsupportedFilterError struct {
	Keys      []string // the offending keys, sorted
	Supported []string // the declared keys
}

// Error implements error.
func (e *UnsupportedFilterError) Error() string {
	return fmt.Sprintf("unsupported filter %s (supported: %s); pass permissive_filters=true to make unknown filters advisory",
		strings.Join(quoteAll(e.Keys), ", "), strings.Join(e.Supported, ", "))
}

// UnsupportedModeError reports a query mode a store does not implement.
type UnsupportedModeError struct {
	Mode      string
	Supported []string
}

// Error implements error.
func (e *UnsupportedModeError) Error() string {
	return fmt.Sprintf("unsupported query mode %q (supported: %s)", e.Mode, strings.Join(e.Supported, ", "))
}

// CheckFilters validates filters against the manifest's declared keys. It
// returns an *UnsupportedFilterError listing every undeclared key unless
// permissive is set.
func CheckFilters(m DataManifest, filters map[string]any, permissive bool) error {
	if permissive {
		return nil
	}
	var bad []string
	for k := range filters {
		if !filterDeclared(m.SupportedFilters, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return &UnsupportedFilterError{Keys: bad, Supported: m.SupportedFilters}
}

func filterDeclared(declared []string, key string) bool {
	for _, d := range declared {
		if d == key {
			return true
		}
		if p, ok := strings.CutSuffix(d, "*"); ok && strings.HasPrefix(key, p) && len(key) > len(p) {
			return true
		}
	}
	return false
}

// ExpiryFromValue converts a skill value for `expires_at` to a time: nil
// means durable; numbers are unix seconds (or milliseconds when larger than
// 1e11); strings are RFC 3339 or decimal unix times.
func ExpiryFromValue(v any) (*time.Time, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case time.Time:
		return &x, nil
	case int:
		return unixGuess(float64(x)), nil
	case int64:
		return unixGuess(float64(x)), nil
	case float64:
		return unixGuess(x), nil
	case interface{ Float() float64 }: // value.Numeral
		return unixGuess(x.Float()), nil
	case string:
		return expiryFromString(x)
	}
	return nil, fmt.Errorf("expires_at: want a unix time, an RFC 3339 string or null, got %T", v)
}

func expiryFromString(s string) (*time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "null" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return &t, nil
	}
	var f float64
	if _, err := fmt.Sscanf(s, "%g", &f); err == nil && fmt.Sprint(f) != "" {
		if strings.Trim(s, "0123456789.") == "" {
			return unixGuess(f), nil
		}
	}
	return nil, fmt.Errorf("expires_at: %q is neither a unix time nor an RFC 3339 time", s)
}

func unixGuess(f float64) *time.Time {
	var t time.Time
	if f > 1e11 {
		t = time.UnixMilli(int64(f)).UTC()
	} else {
		t = time.Unix(int64(f), 0).UTC()
	}
	return &t
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
