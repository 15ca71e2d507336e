package skillstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// SQLite is a contract.SkillStore over an SQLite database with a skills
// table (current body per name) and a skill_versions table (history).
type SQLite struct {
	db   *sql.DB
	path string
	now  func() time.Time
}

var (
	_ contract.SkillStore = (*SQLite)(nil)
	_ contract.Versioner  = (*SQLite)(nil)
)

const sqliteSchema = `
CREATE TABLE IF NOT EXISTS skills (
	name         TEXT PRIMARY KEY,
	body         TEXT NOT NULL,
	status       TEXT NOT NULL,
	author       TEXT NOT NULL DEFAULT '',
	description  TEXT NOT NULL DEFAULT '',
	type         TEXT NOT NULL DEFAULT '',
	content_hash TEXT NOT NULL,
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS skill_versions (
	name         TEXT NOT NULL REFERENCES skills(name) ON DELETE CASCADE,
	seq          INTEGER NOT NULL,
	content_hash TEXT NOT NULL,
	status       TEXT NOT NULL,
	author       TEXT NOT NULL DEFAULT '',
	body         TEXT NOT NULL,
	created_at   INTEGER NOT NULL,
	PRIMARY KEY (name, seq)
);
CREATE INDEX IF NOT EXISTS skills_status ON skills(status);
`

// OpenSQLite opens (creating when needed) the database at path. now may be
// nil.
func OpenSQLite(path string, now func() time.Time) (*SQLite, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("skill store: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("skill store: open %s: %w", path, err)
	}
	if _, err := db.Exec(sqliteSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("skill store: initialise %s: %w", path, err)
	}
	if now == nil {
		now = time.Now
	}
	return &SQLite{db: db, path: path, now: now}, nil
}

// Close closes the database.
func (s *SQLite) Close() error { return s.db.Close() }

// HealthCheck pings the database.
func (s *SQLite) HealthCheck(ctx context.Context) error { return s.db.PingContext(ctx) }

const skillCols = `name, body, status, author, description, type, content_hash, created_at, updated_at`

// Get returns the named skill or nil.
func (s *SQLite) Get(ctx context.Context, name string) (*contract.SkillRecord, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+skillCols+` FROM skills WHERE name = ?`, name)
	r, err := scanSkill(row)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skill store get %q: %w", name, err)
	}
	return r, nil
}

func scanSkill(sc interface{ Scan(...any) error }) (*contract.SkillRecord, error) {
	var r contract.SkillRecord
	var created, updated int64
	if err := sc.Scan(&r.Name, &r.Body, &r.Status, &r.Author, &r.Description, &r.Type, &r.ContentHash, &created, &updated); err != nil {
		return nil, err
	}
	r.Version = contract.VersionOf(r.ContentHash)
	r.CreatedAt, r.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return &r, nil
}

// Write stores body under name, adding a version when the body changed.
func (s *SQLite) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	in, err := checkBody(name, body)
	if err != nil {
		return nil, err
	}
	if err := s.tx(ctx, func(tx *sql.Tx) error { return s.upsert(ctx, tx, name, body, author, in) }); err != nil {
		return nil, fmt.Errorf("skill store write %q: %w", name, err)
	}
	return s.Get(ctx, name)
}

func (s *SQLite) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *SQLite) upsert(ctx context.Context, tx *sql.Tx, name, body, author string, in info) error {
	hash := contract.ContentHash(body)
	var cur string
	err := tx.QueryRowContext(ctx, `SELECT content_hash FROM skills WHERE name = ?`, name).Scan(&cur)
	if err == nil && cur == hash {
		return nil
	}
	if err != nil && err != sql.ErrNoRows {
		return err
	}
	now := s.now().UnixMilli()
	_, err = tx.ExecContext(ctx, `INSERT INTO skills(`+skillCols+`) VALUES (?,?,?,?,?,?,?,?,?)
		ON CONFLICT(name) DO UPDATE SET body=excluded.body, status=excluded.status, author=excluded.author,
		description=excluded.description, type=excluded.type, content_hash=excluded.content_hash, updated_at=excluded.updated_at`,
		name, body, in.Status, author, in.Description, in.Type, hash, now, now)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO skill_versions(name, seq, content_hash, status, author, body, created_at)
		VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM skill_versions WHERE name = ?), ?, ?, ?, ?, ?)`,
		name, name, hash, in.Status, author, body, now)
	return err
}

// List returns matching skills sorted by name; status and author filter in
// SQL.
func (s *SQLite) List(ctx context.Context, q contract.SkillQuery) ([]contract.SkillMeta, error) {
	query := `SELECT ` + skillCols + ` FROM skills WHERE (? = '' OR status = ? OR status LIKE ? || ' %') AND (? = '' OR author = ?) ORDER BY name`
	st := canonicalQueryStatus(q.Status)
	rows, err := s.db.QueryContext(ctx, query, st, st, st, q.Author, q.Author)
	if err != nil {
		return nil, fmt.Errorf("skill store list: %w", err)
	}
	return scanMetas(rows)
}

// Delete removes the skill and its history.
func (s *SQLite) Delete(ctx context.Context, name string) error {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM skill_versions WHERE name = ?`, name); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM skills WHERE name = ?`, name)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("skill store delete %q: %w", name, err)
	}
	if n == 0 {
		return &contract.SkillNotFoundError{Name: name}
	}
	return nil
}

// Versions returns the skill's history, oldest first.
func (s *SQLite) Versions(ctx context.Context, name string) ([]contract.SkillVersion, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT content_hash, status, author, created_at FROM skill_versions WHERE name = ? ORDER BY seq`, name)
	if err != nil {
		return nil, fmt.Errorf("skill store versions %q: %w", name, err)
	}
	return scanVersions(rows)
}

// UpdateStatus rewrites the skill's # Status: line and records a version.
func (s *SQLite) UpdateStatus(ctx context.Context, name, status string) error {
	canon, ok := contract.CanonicalStatus(status)
	if !ok {
		return fmt.Errorf("invalid status %q (want Draft, Approved or Disabled)", status)
	}
	r, err := s.Get(ctx, name)
	if err != nil {
		return err
	}
	if r == nil {
		return &contract.SkillNotFoundError{Name: name}
	}
	body := withStatus(r.Body, canon)
	in, err := describe(body)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error { return s.upsert(ctx, tx, name, body, r.Author, in) })
}

// Version fingerprints (name, status, content_hash) of every skill without
// reading bodies.
func (s *SQLite) Version(ctx context.Context) (string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, status, content_hash FROM skills ORDER BY name`)
	if err != nil {
		return "", fmt.Errorf("skill store version: %w", err)
	}
	defer rows.Close()
	h := sha256.New()
	for rows.Next() {
		var name, status, hash string
		if err := rows.Scan(&name, &status, &hash); err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", name, status, hash)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// scanVersions reads the rows of a versions query (content_hash, status,
// author, created_at in Unix milliseconds) and closes them; both stores
// keep their history in this shape.
func scanVersions(rows *sql.Rows) ([]contract.SkillVersion, error) {
	defer rows.Close()
	out := []contract.SkillVersion{}
	for rows.Next() {
		var v contract.SkillVersion
		var created int64
		if err := rows.Scan(&v.ContentHash, &v.Status, &v.Author, &created); err != nil {
			return nil, err
		}
		v.Version, v.CreatedAt = contract.VersionOf(v.ContentHash), time.UnixMilli(created).UTC()
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanMetas reads the rows of a list query (skillCols) into metadata and
// closes them; both stores list in this shape.
func scanMetas(rows *sql.Rows) ([]contract.SkillMeta, error) {
	defer rows.Close()
	out := []contract.SkillMeta{}
	for rows.Next() {
		r, err := scanSkill(rows)
		if err != nil {
			return nil, fmt.Errorf("skill store list: %w", err)
		}
		out = append(out, r.Meta())
	}
	return out, rows.Err()
}
