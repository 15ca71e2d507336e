package datastore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Options configures a Store. The zero value is usable.
type Options struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// DefaultLimit is the result cap when a query sets none (default 20).
	DefaultLimit int
}

// Store is a SQLite-backed contract.DataStore. It is safe for concurrent
// use, including by several processes sharing the file.
type Store struct {
	path string
	opts Options
	// handle opens the database handle once, on first use (a run that
	// never reads or writes data does not set up database/sql: issue 25);
	// opened is set once it has (Close reads it).
	handle func() (*sql.DB, error)
	opened atomic.Pointer[sql.DB]
	init   func() error // creates the tables, once, on first use
}

var _ contract.DataStore = (*Store)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS records (
	seq        INTEGER PRIMARY KEY,
	id         TEXT NOT NULL UNIQUE,
	summary    TEXT NOT NULL,
	detail     TEXT NOT NULL,
	tags       TEXT NOT NULL,
	metadata   TEXT NOT NULL,
	recipients TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	expires_at INTEGER
);
CREATE TABLE IF NOT EXISTS record_tags (
	tag TEXT NOT NULL,
	seq INTEGER NOT NULL REFERENCES records(seq),
	PRIMARY KEY (tag, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_recipients (
	recipient TEXT NOT NULL,
	seq INTEGER NOT NULL REFERENCES records(seq),
	PRIMARY KEY (recipient, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_created ON records(created_at);
CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5(
	detail, tags, content='records', content_rowid='seq', tokenize='unicode61'
);
`

// Open opens (creating when needed) the database file at path. Parent
// directories are created; the file and its tables on first use.
func Open(path string, opts Options) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("data store: create directory: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.DefaultLimit <= 0 {
		opts.DefaultLimit = 20
	}
	st := &Store{path: path, opts: opts}
	st.handle = sync.OnceValues(func() (*sql.DB, error) {
		db, err := sql.Open("sqlite", dsn(path))
		if err != nil {
			return nil, fmt.Errorf("data store: open %s: %w", path, err)
		}
		st.opened.Store(db)
		return db, nil
	})
	// the tables are created on first use: a run that never reads or
	// writes data does not pay for opening the database (issue 25)
	st.init = sync.OnceValue(func() error {
		db, err := st.handle()
		if err != nil {
			return err
		}
		if _, err := db.Exec(schema); err != nil {
			return fmt.Errorf("data store: initialise %s: %w", path, err)
		}
		return nil
	})
	return st, nil
}

// dsn builds a modernc.org/sqlite DSN with WAL, a busy timeout and
// immediate transactions so concurrent writers queue instead of failing.
func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// Path returns the database file path.
func (s *Store) Path() string { return s.path }

// Close closes the database (a store never used has nothing open).
func (s *Store) Close() error {
	if db := s.opened.Load(); db != nil {
		return db.Close()
	}
	return nil
}

// HealthCheck pings the database.
func (s *Store) HealthCheck(ctx context.Context) error {
	db, err := s.handle()
	if err == nil {
		err = db.PingContext(ctx)
	}
	if err != nil {
		return fmt.Errorf("data store %s: %w", s.path, err)
	}
	return nil
}

// Manifest reports the store's capabilities.
func (s *Store) Manifest(context.Context) contract.DataManifest {
	return contract.DataManifest{
		Implementation:    "SqliteDataStore",
		SupportedModes:    []string{"fts", "recent"},
		SupportedFilters:  []string{"domain_tags", "tags", "recipient", "created_after", "created_before", "metadata.*"},
		SupportsWrites:    true,
		SupportsTagFilter: true,
	}
}

// Write stores one record.
func (s *Store) Write(ctx context.Context, req contract.WriteRequest) (contract.WriteResult, error) {
	id, err := newID()
	if err != nil {
		return contract.WriteResult{}, err
	}
	if err := s.init(); err != nil {
		return contract.WriteResult{}, err
	}
	now := s.opts.Now().UTC()
	tx, err := s.opened.Load().BeginTx(ctx, nil)
	if err != nil {
		return contract.WriteResult{}, fmt.Errorf("data store write: %w", err)
	}
	defer tx.Rollback()
	if err := insertRecord(ctx, tx, id, req, now); err != nil {
		return contract.WriteResult{}, fmt.Errorf("data store write: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return contract.WriteResult{}, fmt.Errorf("data store write: %w", err)
	}
	return contract.WriteResult{ID: id, CreatedAt: now}, nil
}

func insertRecord(ctx context.Context, tx *sql.Tx, id string, req contract.WriteRequest, now time.Time) error {
	tags := dedupe(req.Tags)
	recips := dedupe(req.Recipients)
	meta := req.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("metadata is not JSON-encodable: %w", err)
	}
	var exp any
	if req.ExpiresAt != nil {
		exp = req.ExpiresAt.UnixMilli()
	}
	res, err := tx.ExecContext(ctx,
		`INSERT INTO records(id, summary, detail, tags, metadata, recipients, created_at, expires_at) VALUES (?,?,?,?,?,?,?,?)`,
		id, contract.Summarize(req.Content), req.Content, mustJSON(tags), string(metaJSON), mustJSON(recips), now.UnixMilli(), exp)
	if err != nil {
		return err
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return err
	}
	return insertIndexes(ctx, tx, seq, req.Content, tags, recips)
}

func insertIndexes(ctx context.Context, tx *sql.Tx, seq int64, content string, tags, recips []string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO records_fts(rowid, detail, tags) VALUES (?,?,?)`, seq, content, joinSpace(tags)); err != nil {
		return err
	}
	for _, t := range tags {
		if _, err := tx.ExecContext(ctx, `INSERT INTO record_tags(tag, seq) VALUES (?,?)`, t, seq); err != nil {
			return err
		}
	}
	for _, r := range recips {
		if _, err := tx.ExecContext(ctx, `INSERT INTO record_recipients(recipient, seq) VALUES (?,?)`, r, seq); err != nil {
			return err
		}
	}
	return nil
}

// Get returns the record with id, or nil when it is missing or expired.
func (s *Store) Get(ctx context.Context, id string) (*contract.Record, error) {
	if err := s.init(); err != nil {
		return nil, err
	}
	row := s.opened.Load().QueryRowContext(ctx, `SELECT `+recordCols+`, 0 FROM records r WHERE r.id = ? AND `+liveClause, id, s.opts.Now().UnixMilli())
	rec, err := scanRecord(row)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("data store get %q: %w", id, err)
	}
	return rec, nil
}

const recordCols = `r.id, r.summary, r.detail, r.tags, r.metadata, r.recipients, r.created_at, r.expires_at`

const liveClause = `(r.expires_at IS NULL OR r.expires_at > ?)`

type scanner interface{ Scan(dest ...any) error }

func scanRecord(sc scanner) (*contract.Record, error) {
	var r contract.Record
	var tags, meta, recips string
	var created int64
	var expires sql.NullInt64
	if err := sc.Scan(&r.ID, &r.Summary, &r.Detail, &tags, &meta, &recips, &created, &expires, &r.Score); err != nil {
		return nil, err
	}
	if err := decodeJSONColumns(&r, tags, meta, recips); err != nil {
		return nil, err
	}
	r.CreatedAt = time.UnixMilli(created).UTC()
	if expires.Valid {
		t := time.UnixMilli(expires.Int64).UTC()
		r.ExpiresAt = &t
	}
	return &r, nil
}

func decodeJSONColumns(r *contract.Record, tags, meta, recips string) error {
	if err := json.Unmarshal([]byte(tags), &r.Tags); err != nil {
		return fmt.Errorf("corrupt tags column: %w", err)
	}
	if err := json.Unmarshal([]byte(meta), &r.Metadata); err != nil {
		return fmt.Errorf("corrupt metadata column: %w", err)
	}
	if err := json.Unmarshal([]byte(recips), &r.Recipients); err != nil {
		return fmt.Errorf("corrupt recipients column: %w", err)
	}
	return nil
}

func newID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("data store: generate id: %w", err)
	}
	return "d_" + hex.EncodeToString(b[:]), nil
}

func dedupe(ss []string) []string {
	out := make([]string, 0, len(ss))
	seen := map[string]bool{}
	for _, s := range ss {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func mustJSON(ss []string) string {
	b, _ := json.Marshal(ss) // a []string always encodes
	return string(b)
}

func joinSpace(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}
