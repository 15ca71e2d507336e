package trace

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/value"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Run statuses.
const (
	StatusRunning = "running"
	StatusOK      = "ok"
	StatusFailed  = "failed"
	StatusAborted = "aborted"
	// StatusRefused is a run the host's approval gate refused before its
	// first op (see [Store.Refused]).
	StatusRefused = "refused"
)

// FileName is the trace database's name inside the trace directory.
const FileName = "traces.db"

// Run is one recorded run.
type Run struct {
	ID          string       `json:"trace_id"`
	Skill       string       `json:"skill"`
	ContentHash string       `json:"content_hash"`
	Trigger     string       `json:"trigger_kind"` // cli, cron, event, agent, inline, replay
	TriggerName string       `json:"trigger_name,omitempty"`
	Caller      string       `json:"caller_agent_id,omitempty"`
	Inputs      value.Inputs `json:"inputs"`
	Mechanical  bool         `json:"mechanical"`
	Status      string       `json:"status"`
	StartedAt   time.Time    `json:"started_at"`
	FinishedAt  *time.Time   `json:"finished_at,omitempty"`
	DurationMS  int64        `json:"duration_ms"`
	// DeadlineExceeded, UncertainEffects, Errors, Fallbacks, Deliveries and
	// Output are copied from the run's result.
	DeadlineExceeded bool             `json:"deadline_exceeded"`
	UncertainEffects []eval.Effect    `json:"uncertain_effects"`
	Errors           []eval.ErrorInfo `json:"errors"`
	Fallbacks        []eval.Fallback  `json:"fallbacks"`
	Deliveries       []eval.Receipt   `json:"deliveries"`
	Output           string           `json:"output"`
	AbortReason      string           `json:"abort_reason,omitempty"`
	// Host names the host that ran it (empty for CLI runs and for rows
	// written before hosts were recorded).
	Host string `json:"host,omitempty"`
	Ops  []Op   `json:"ops,omitempty"`
}

// Clean reports whether the run finished without errors, deadline cut or
// uncertain effects.
func (r *Run) Clean() bool {
	return r.Status == StatusOK && !r.DeadlineExceeded && len(r.UncertainEffects) == 0
}

// Store is a trace database. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	d    dialect
	path string // the SQLite file, or the Postgres URL without its password
	host string
	now  func() time.Time
}

const schema = `
CREATE TABLE IF NOT EXISTS runs (
	id TEXT PRIMARY KEY,
	skill TEXT NOT NULL,
	content_hash TEXT NOT NULL,
	trigger_kind TEXT NOT NULL,
	trigger_name TEXT NOT NULL DEFAULT '',
	caller TEXT NOT NULL DEFAULT '',
	inputs TEXT NOT NULL,
	mechanical BOOLEAN NOT NULL DEFAULT FALSE,
	status TEXT NOT NULL,
	started_at BIGINT NOT NULL,
	finished_at BIGINT,
	deadline_exceeded BOOLEAN NOT NULL DEFAULT FALSE,
	uncertain_effects TEXT NOT NULL DEFAULT '[]',
	errors TEXT NOT NULL DEFAULT '[]',
	fallbacks TEXT NOT NULL DEFAULT '[]',
	deliveries TEXT NOT NULL DEFAULT '[]',
	output TEXT NOT NULL DEFAULT '',
	abort_reason TEXT NOT NULL DEFAULT '',
	host TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS runs_skill ON runs(skill, started_at);
CREATE INDEX IF NOT EXISTS runs_started ON runs(started_at);
CREATE TABLE IF NOT EXISTS ops (
	run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	depth INTEGER NOT NULL,
	skill TEXT NOT NULL,
	target TEXT NOT NULL,
	op TEXT NOT NULL,
	line INTEGER NOT NULL,
	started_at BIGINT NOT NULL,
	duration_us BIGINT NOT NULL,
	outcome TEXT NOT NULL,
	error_kind TEXT NOT NULL DEFAULT '',
	detail TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (run_id, seq)
);
CREATE INDEX IF NOT EXISTS ops_kind ON ops(error_kind);
CREATE TABLE IF NOT EXISTS sources (
	content_hash TEXT PRIMARY KEY,
	body TEXT NOT NULL
);
`

// Open opens (creating when needed) the trace database at path.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("trace store: create directory: %w", err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("trace store: open %s: %w", path, err)
	}
	// One connection: writers queue in Go instead of spinning in SQLite's
	// busy handler, which under many concurrent runs costs far more.
	db.SetMaxOpenConns(1)
	if err := sqliteDialect.initSchema(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("trace store: initialise %s: %w", path, err)
	}
	return &Store{db: db, d: sqliteDialect, path: path, now: time.Now}, nil
}

// IsPostgres reports whether a database URL selects Postgres.
func IsPostgres(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// connectTimeout bounds connecting to Postgres and creating the tables.
const connectTimeout = 15 * time.Second

// OpenPostgres opens (creating the tables when needed) the trace store in
// the Postgres database at url, through pgx's database/sql driver.
// Several hosts may share it.
func OpenPostgres(ctx context.Context, url string) (*Store, error) {
	shown := redactURL(url)
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("trace store: open %s: %w", shown, err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(4)
	pctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("trace store: connect %s: %w", shown, err)
	}
	if err := postgresDialect.initSchema(pctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("trace store: initialise %s: %w", shown, err)
	}
	return &Store{db: db, d: postgresDialect, path: shown, now: time.Now}, nil
}

// OpenDatabase opens the trace store a host or CLI is configured with:
// Postgres when databaseURL is a postgres:// URL (shared by every host
// given it), else the SQLite file traces.db in dir. A SQLite queue path
// in databaseURL does not move the trace store.
func OpenDatabase(ctx context.Context, databaseURL, dir string) (*Store, error) {
	if IsPostgres(databaseURL) {
		return OpenPostgres(ctx, databaseURL)
	}
	if dir == "" {
		return nil, errors.New("no trace directory: set SKILLSCRIPT_HOME")
	}
	return Open(filepath.Join(dir, FileName))
}

// redactURL drops the password from a database URL for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "postgres database"
	}
	return u.Redacted()
}

// SetHost names the host writing runs through s: recorded on every run it
// begins, and the scope of [Store.Recover] on a shared (Postgres) store.
// Call it before the store is used.
func (s *Store) SetHost(name string) { s.host = name }

// Shared reports whether the store is a database several hosts share
// (Postgres) rather than one host's SQLite file.
func (s *Store) Shared() bool { return s.d.postgres }

// Backend names the database: "sqlite" or "postgres".
func (s *Store) Backend() string { return s.d.name }

// dsn builds a modernc.org/sqlite DSN: WAL with synchronous NORMAL (a
// committed trace survives a killed process; the last commits may be
// lost on power failure), a busy timeout for other processes, and
// immediate transactions.
func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// Path returns the database file, or the Postgres URL without password.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Ping checks the database is reachable.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Begin records the start of run r (status running) and its source, so
// that a crash mid-run leaves a row to recover.
func (s *Store) Begin(ctx context.Context, r *Run, source string) error {
	in, err := json.Marshal(nonNilMap(r.Inputs))
	if err != nil {
		return fmt.Errorf("trace: inputs: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("trace: begin: %w", err)
	}
	defer tx.Rollback()
	if source != "" {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO sources(content_hash, body) VALUES(?, ?) ON CONFLICT DO NOTHING`), r.ContentHash, source); err != nil {
			return fmt.Errorf("trace: source: %w", err)
		}
	}
	if r.Host == "" {
		r.Host = s.host
	}
	_, err = tx.ExecContext(ctx, s.d.rebind(`INSERT INTO runs(id, skill, content_hash, trigger_kind, trigger_name, caller, inputs, mechanical, status, started_at, host)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		r.ID, r.Skill, r.ContentHash, r.Trigger, r.TriggerName, r.Caller, string(in), r.Mechanical, StatusRunning, r.StartedAt.UnixMilli(), r.Host)
	if err != nil {
		return fmt.Errorf("trace: insert run: %w", err)
	}
	return tx.Commit()
}

// Finish records the outcome of run id: the result fields and its ops.
func (s *Store) Finish(ctx context.Context, id string, res *eval.Result, ops []Op, finished time.Time) error {
	status := StatusOK
	if res.Failed() {
		status = StatusFailed
	}
	return s.finish(ctx, id, status, res, ops, finished)
}

func (s *Store) finish(ctx context.Context, id, status string, res *eval.Result, ops []Op, finished time.Time) error {
	cols := []any{status, finished.UnixMilli(), res.DeadlineExceeded,
		mustJSON(res.UncertainEffects), mustJSON(res.Errors), mustJSON(res.Fallbacks), mustJSON(res.Receipts), res.Outputs.Text}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("trace: begin: %w", err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, s.d.rebind(`UPDATE runs SET status=?, finished_at=?, deadline_exceeded=?, uncertain_effects=?, errors=?, fallbacks=?, deliveries=?, output=? WHERE id=?`),
		append(cols, id)...)
	if err != nil {
		return fmt.Errorf("trace: update run: %w", err)
	}
	if err := s.insertOps(ctx, tx, id, ops); err != nil {
		return err
	}
	return tx.Commit()
}

// opInsert writes one op of a run (again: a retried write replaces it).
const opInsert = `INSERT INTO ops(run_id, seq, depth, skill, target, op, line, started_at, duration_us, outcome, error_kind, detail)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (run_id, seq) DO UPDATE SET depth=excluded.depth, skill=excluded.skill, target=excluded.target, op=excluded.op,
		line=excluded.line, started_at=excluded.started_at, duration_us=excluded.duration_us, outcome=excluded.outcome,
		error_kind=excluded.error_kind, detail=excluded.detail`

func (s *Store) insertOps(ctx context.Context, tx *sql.Tx, id string, ops []Op) error {
	if len(ops) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, s.d.rebind(opInsert))
	if err != nil {
		return fmt.Errorf("trace: ops: %w", err)
	}
	defer stmt.Close()
	for i, o := range ops {
		_, err := stmt.ExecContext(ctx, id, i, o.Depth, o.Skill, o.Target, o.Op, o.Line, o.StartedAt.UnixMilli(),
			o.Duration.Microseconds(), o.Outcome, o.ErrorKind, o.Detail)
		if err != nil {
			return fmt.Errorf("trace: op: %w", err)
		}
	}
	return nil
}

// Abort marks a run that is still running, or that failed because it
// was cut off, aborted with reason. A run that finished ok is left alone.
func (s *Store) Abort(ctx context.Context, id, reason string) error {
	_, err := s.db.ExecContext(ctx, s.d.rebind(`UPDATE runs SET status=?, finished_at=COALESCE(finished_at, ?), abort_reason=? WHERE id=? AND status IN (?, ?)`),
		StatusAborted, s.now().UnixMilli(), reason, id, StatusRunning, StatusFailed)
	return err
}

// Interrupted marks a run that began and never finished (still running,
// or aborted by [Store.Recover] at a restart) aborted with reason, and
// reports whether it did. A run that finished is left alone.
func (s *Store) Interrupted(ctx context.Context, id, reason string) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.d.rebind(`UPDATE runs SET status=?, finished_at=COALESCE(finished_at, ?), abort_reason=? WHERE id=? AND (status=? OR (status=? AND errors IN ('[]', 'null')))`),
		StatusAborted, s.now().UnixMilli(), reason, id, StatusRunning, StatusAborted)
	if err != nil {
		return false, fmt.Errorf("trace: interrupted: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Recover marks runs still "running" aborted: called at a host's
// start-up, it closes the rows of runs a killed process left behind. On
// a SQLite store (owned by one host) that is every running row; on a
// shared Postgres store only the rows this host (see [Store.SetHost])
// began, since other hosts' runs may be alive. It returns how many rows
// it closed.
func (s *Store) Recover(ctx context.Context, reason string) (int, error) {
	q, args := `UPDATE runs SET status=?, finished_at=?, abort_reason=? WHERE status=?`, []any{StatusAborted, s.now().UnixMilli(), reason, StatusRunning}
	if s.d.postgres {
		q, args = q+" AND host=?", append(args, s.host)
	}
	res, err := s.db.ExecContext(ctx, s.d.rebind(q), args...)
	if err != nil {
		return 0, fmt.Errorf("trace: recover: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// ErrNotFound reports an unknown trace id.
var ErrNotFound = errors.New("trace not found")

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

const supervisedSchema = `CREATE TABLE IF NOT EXISTS supervised (
	trace_id TEXT PRIMARY KEY,
	routed_at BIGINT NOT NULL
)`

// Unsupervised returns finished autonomous fires (cron and event) that
// were not clean — failed, aborted, cut by their deadline or with
// uncertain effects — and have not been routed to the supervisor yet,
// oldest first. Runs of skill exclude (the supervisor itself) are left
// out.
func (s *Store) Unsupervised(ctx context.Context, exclude string, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind("SELECT "+runCols+` FROM runs
		WHERE trigger_kind IN ('cron', 'event') AND status != 'running' AND skill != ?
		AND (status != 'ok' OR deadline_exceeded = TRUE OR uncertain_effects NOT IN ('[]', 'null'))
		AND id NOT IN (SELECT trace_id FROM supervised)
		ORDER BY started_at, rowid LIMIT ?`), exclude, limit)
	if err != nil {
		return nil, fmt.Errorf("trace: unsupervised: %w", err)
	}
	defer rows.Close()
	out := []Run{}
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// MarkSupervised records that run id was routed to the supervisor. It
// reports false when it already was (another sweep got there first), so
// every failed fire is routed at most once.
func (s *Store) MarkSupervised(ctx context.Context, id string) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO supervised(trace_id, routed_at) VALUES(?, ?) ON CONFLICT DO NOTHING`), id, s.now().UnixMilli())
	if err != nil {
		return false, fmt.Errorf("trace: mark supervised: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
