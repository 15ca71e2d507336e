package skillstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/skillscript/skillc/eval/contract"
)

// Postgres is a contract.SkillStore in a PostgreSQL database shared by a
// cluster of hosts: every host given the same URL sees the same skills,
// versions and statuses (approvals and their signatures live in the
// skill's # Status: line), with no files to copy. Its tables are
// skillc_skills (current body per name) and skillc_skill_versions
// (history), next to the queue's and the traces' when they share the
// database.
type Postgres struct {
	db  *sql.DB
	now func() time.Time
}

var (
	_ contract.SkillStore = (*Postgres)(nil)
	_ contract.Versioner  = (*Postgres)(nil)
)

const postgresSchema = `
CREATE TABLE IF NOT EXISTS skillc_skills (
	name         TEXT PRIMARY KEY,
	body         TEXT NOT NULL,
	status       TEXT NOT NULL,
	author       TEXT NOT NULL DEFAULT '',
	description  TEXT NOT NULL DEFAULT '',
	type         TEXT NOT NULL DEFAULT '',
	content_hash TEXT NOT NULL,
	created_at   BIGINT NOT NULL,
	updated_at   BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS skillc_skill_versions (
	name         TEXT NOT NULL REFERENCES skillc_skills(name) ON DELETE CASCADE,
	seq          INTEGER NOT NULL,
	content_hash TEXT NOT NULL,
	status       TEXT NOT NULL,
	author       TEXT NOT NULL DEFAULT '',
	body         TEXT NOT NULL,
	created_at   BIGINT NOT NULL,
	PRIMARY KEY (name, seq)
);
CREATE INDEX IF NOT EXISTS skillc_skills_status ON skillc_skills(status);
`

// schemaLockKey serialises the schema's creation across hosts starting
// at once on one database.
const schemaLockKey = 0x736b696c6c73 // "skills"

// EnvURL names the environment variable selecting the shared skill
// store: a postgres:// URL (skillc serve --skill-store sets it too).
const EnvURL = "SKILLSCRIPT_SKILL_STORE_URL"

// IsPostgresURL reports whether a skill store URL selects Postgres.
func IsPostgresURL(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// OpenPostgres connects to the database at url (postgres://...) and
// creates the store's tables when needed. now may be nil.
func OpenPostgres(ctx context.Context, url string, now func() time.Time) (*Postgres, error) {
	if !IsPostgresURL(url) {
		return nil, fmt.Errorf("skill store: %q is not a postgres:// URL", redactURL(url))
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("skill store: open %s: %w", redactURL(url), err)
	}
	if err := initPostgres(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("skill store: initialise %s: %w", redactURL(url), err)
	}
	if now == nil {
		now = time.Now
	}
	return &Postgres{db: db, now: now}, nil
}

func initPostgres(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLockKey); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, postgresSchema); err != nil {
		return err
	}
	return tx.Commit()
}

// redactURL drops a password from a database URL for messages.
func redactURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	cred, host, ok := strings.Cut(rest, "@")
	if !ok {
		return u
	}
	if user, _, hasPass := strings.Cut(cred, ":"); hasPass {
		return scheme + "://" + user + ":xxxxx@" + host
	}
	return u
}

// Close closes the connection pool.
func (s *Postgres) Close() error { return s.db.Close() }

// HealthCheck pings the database.
func (s *Postgres) HealthCheck(ctx context.Context) error { return s.db.PingContext(ctx) }

// Get returns the named skill or nil.
func (s *Postgres) Get(ctx context.Context, name string) (*contract.SkillRecord, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+skillCols+` FROM skillc_skills WHERE name = $1`, name)
	r, err := scanSkill(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skill store get %q: %w", name, err)
	}
	return r, nil
}

// Write stores body under name, adding a version when the body changed.
// Writers of one name on several hosts are serialised by a transaction
// advisory lock on the name.
func (s *Postgres) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	in, err := checkBody(name, body)
	if err != nil {
		return nil, err
	}
	if err := s.tx(ctx, name, func(tx *sql.Tx) error { return s.upsert(ctx, tx, name, body, author, in) }); err != nil {
		return nil, fmt.Errorf("skill store write %q: %w", name, err)
	}
	return s.Get(ctx, name)
}

// tx runs fn in a transaction holding the advisory lock of name.
func (s *Postgres) tx(ctx context.Context, name string, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('skillc_skill:' || $1))`, name); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Postgres) upsert(ctx context.Context, tx *sql.Tx, name, body, author string, in info) error {
	hash := contract.ContentHash(body)
	var cur string
	err := tx.QueryRowContext(ctx, `SELECT content_hash FROM skillc_skills WHERE name = $1`, name).Scan(&cur)
	if err == nil && cur == hash {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	now := s.now().UnixMilli()
	_, err = tx.ExecContext(ctx, `INSERT INTO skillc_skills(`+skillCols+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)
		ON CONFLICT(name) DO UPDATE SET body=excluded.body, status=excluded.status, author=excluded.author,
		description=excluded.description, type=excluded.type, content_hash=excluded.content_hash, updated_at=excluded.updated_at`,
		name, body, in.Status, author, in.Description, in.Type, hash, now, now)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO skillc_skill_versions(name, seq, content_hash, status, author, body, created_at)
		VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM skillc_skill_versions WHERE name = $1), $2, $3, $4, $5, $6)`,
		name, hash, in.Status, author, body, now)
	return err
}

// List returns matching skills sorted by name; status and author filter in
// SQL.
func (s *Postgres) List(ctx context.Context, q contract.SkillQuery) ([]contract.SkillMeta, error) {
	st := canonicalQueryStatus(q.Status)
	rows, err := s.db.QueryContext(ctx, `SELECT `+skillCols+` FROM skillc_skills
		WHERE ($1 = '' OR status = $1 OR status LIKE $1 || ' %') AND ($2 = '' OR author = $2) ORDER BY name COLLATE "C"`, st, q.Author)
	if err != nil {
		return nil, fmt.Errorf("skill store list: %w", err)
	}
	return scanMetas(rows)
}

// Delete removes the skill and its history.
func (s *Postgres) Delete(ctx context.Context, name string) error {
	var n int64
	err := s.tx(ctx, name, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM skillc_skill_versions WHERE name = $1`, name); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM skillc_skills WHERE name = $1`, name)
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
func (s *Postgres) Versions(ctx context.Context, name string) ([]contract.SkillVersion, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT content_hash, status, author, created_at FROM skillc_skill_versions WHERE name = $1 ORDER BY seq`, name)
	if err != nil {
		return nil, fmt.Errorf("skill store versions %q: %w", name, err)
	}
	return scanVersions(rows)
}

// UpdateStatus rewrites the skill's # Status: line and records a version.
func (s *Postgres) UpdateStatus(ctx context.Context, name, status string) error {
	canon, ok := contract.CanonicalStatus(status)
	if !ok {
		return fmt.Errorf("invalid status %q (want Draft, Approved or Disabled)", status)
	}
	return s.tx(ctx, name, func(tx *sql.Tx) error {
		var body, author string
		err := tx.QueryRowContext(ctx, `SELECT body, author FROM skillc_skills WHERE name = $1`, name).Scan(&body, &author)
		if errors.Is(err, sql.ErrNoRows) {
			return &contract.SkillNotFoundError{Name: name}
		}
		if err != nil {
			return err
		}
		body = withStatus(body, canon)
		in, err := describe(body)
		if err != nil {
			return err
		}
		return s.upsert(ctx, tx, name, body, author, in)
	})
}

// Version fingerprints (name, status, content_hash) of every skill without
// reading bodies; a write on any host changes it.
func (s *Postgres) Version(ctx context.Context) (string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, status, content_hash FROM skillc_skills ORDER BY name COLLATE "C"`)
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
