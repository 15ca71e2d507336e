package trigger

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	"github.com/skillscript/skillc/eval/value"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// FireArgs is the River job of one fire. For cron fires the trigger id,
// skill and fire time make the job unique, so hosts sharing a queue
// insert one job per due fire.
type FireArgs struct {
	TriggerID   string       `json:"trigger_id" river:"unique"`
	Skill       string       `json:"skill" river:"unique"`
	FireAt      int64        `json:"fire_at" river:"unique"` // unix ms of the logical fire time
	TriggerKind string       `json:"trigger_kind"`
	Spec        string       `json:"spec"`
	TraceID     string       `json:"trace_id,omitempty"`
	Params      value.Inputs `json:"params,omitempty"`
	// IdempotencyKey is the poster's Idempotency-Key of an event: with
	// TriggerID and Skill it makes the job unique (FireAt is then 0 and
	// FiredAtMS holds the fire time), so a repeated post finds the first
	// job and its trace id.
	IdempotencyKey string `json:"idempotency_key,omitempty" river:"unique"`
	FiredAtMS      int64  `json:"fired_at_ms,omitempty"`
	// TimeoutMS is the job's timeout, from the skill's # Deadline: or
	// # Timeout: plus grace (see [JobTimeouts]); 0 means the default.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
}

// Kind implements river.JobArgs.
func (FireArgs) Kind() string { return "skillc_fire" }

// queue is a River client over SQLite or Postgres, without the TTx type
// parameter.
type queue interface {
	// insert queues one job; for a unique one that was already queued it
	// returns the queued job's args and skipped.
	insert(ctx context.Context, args FireArgs, unique bool) (queued FireArgs, skipped bool, err error)
	// depth counts the jobs not finished yet (queued, retrying, running).
	depth(ctx context.Context) (int, error)
	// insertUnique inserts cron fires in one transaction; skipped[i] is
	// set for a fire another host already inserted.
	insertUnique(ctx context.Context, args []FireArgs) (skipped []bool, err error)
	start(ctx context.Context) error
	stop(ctx context.Context) error
	db() *sql.DB
	postgres() bool
	// id is the River client id of this host's process.
	id() string
	// stopped reports whether the River client has stopped.
	stopped() bool
	// running lists the jobs in the running state, of every host.
	running(ctx context.Context) ([]*rivertype.JobRow, error)
}

type riverQueue[TTx any] struct {
	client *river.Client[TTx]
	sqlDB  *sql.DB
	pg     bool
	close  func()
}

func (q *riverQueue[TTx]) insert(ctx context.Context, args FireArgs, unique bool) (FireArgs, bool, error) {
	opts := &river.InsertOpts{MaxAttempts: MaxAttempts}
	if unique {
		opts.UniqueOpts = river.UniqueOpts{ByArgs: true}
	}
	res, err := q.client.Insert(ctx, args, opts)
	if err != nil {
		return args, false, err
	}
	if !res.UniqueSkippedAsDuplicate || res.Job == nil {
		return args, res.UniqueSkippedAsDuplicate, nil
	}
	var queued FireArgs
	if err := json.Unmarshal(res.Job.EncodedArgs, &queued); err != nil {
		return args, true, fmt.Errorf("queued job %d: %w", res.Job.ID, err)
	}
	return queued, true, nil
}

func (q *riverQueue[TTx]) depth(ctx context.Context) (int, error) {
	var n int
	err := q.sqlDB.QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE state IN ('available', 'pending', 'retryable', 'running', 'scheduled')`).Scan(&n)
	return n, err
}

func (q *riverQueue[TTx]) insertUnique(ctx context.Context, args []FireArgs) ([]bool, error) {
	params := make([]river.InsertManyParams, len(args))
	for i, a := range args {
		params[i] = river.InsertManyParams{Args: a, InsertOpts: &river.InsertOpts{MaxAttempts: MaxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}}
	}
	res, err := q.client.InsertMany(ctx, params)
	if err != nil {
		return nil, err
	}
	skipped := make([]bool, len(res))
	for i, r := range res {
		skipped[i] = r.UniqueSkippedAsDuplicate
	}
	return skipped, nil
}

func (q *riverQueue[TTx]) start(ctx context.Context) error { return q.client.Start(ctx) }

// stop stops fetching and waits for running jobs until ctx is done, then
// cancels what still runs.
func (q *riverQueue[TTx]) stop(ctx context.Context) error {
	err := q.client.Stop(ctx)
	if ctx.Err() != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = q.client.StopAndCancel(cctx)
		cancel()
	}
	q.close()
	return err
}

func (q *riverQueue[TTx]) id() string { return q.client.ID() }

func (q *riverQueue[TTx]) stopped() bool {
	select {
	case <-q.client.Stopped():
		return true
	default:
		return false
	}
}

func (q *riverQueue[TTx]) running(ctx context.Context) ([]*rivertype.JobRow, error) {
	res, err := q.client.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateRunning).First(10000))
	if err != nil {
		return nil, err
	}
	return res.Jobs, nil
}

func (q *riverQueue[TTx]) db() *sql.DB    { return q.sqlDB }
func (q *riverQueue[TTx]) postgres() bool { return q.pg }

// MaxAttempts bounds the attempts of one fire (first run plus retries).
const MaxAttempts = 3

// QueueOptions configure the River client.
type QueueOptions struct {
	// URL is a postgres:// URL, or a SQLite file path (default
	// $SKILLSCRIPT_HOME/queue.db when empty).
	URL  string
	Home string
	// Workers is how many fires this host runs at once.
	Workers int
	// FetchPollInterval is how often idle workers look for jobs.
	FetchPollInterval time.Duration
	// Timeouts bound each job (see [JobTimeouts]).
	Timeouts JobTimeouts
	// RescueAfter is River's rescue window: a job running longer is
	// stuck and retried (its run is looked up first, see doc.go). Zero
	// means Timeouts.RescueAfter(); a shorter window than the longest job
	// timeout is refused.
	RescueAfter time.Duration
	// Host names this host (stable across restarts); its River client id
	// derives from it, so that a restarted host rescues at once the jobs
	// its killed predecessor held.
	Host string
	// HostTimeout is how long a host may miss its heartbeat before the
	// jobs it holds are rescued by another host (default 15s).
	HostTimeout time.Duration
	Logger      *slog.Logger
}

// IsPostgres reports whether a queue URL selects Postgres.
func IsPostgres(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// openQueue opens the database, migrates River's tables and builds a
// client running worker.
func openQueue(ctx context.Context, o QueueOptions, worker *worker) (queue, error) {
	worker.pg = IsPostgres(o.URL)
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, worker); err != nil {
		return nil, err
	}
	jt := o.Timeouts.withDefaults()
	if err := jt.check(); err != nil {
		return nil, err
	}
	rescue := o.RescueAfter
	if rescue <= 0 {
		rescue = jt.RescueAfter()
	}
	if rescue < jt.Max+JobGrace {
		return nil, fmt.Errorf("rescue window %s is shorter than the maximum job timeout %s plus %s grace: River would retry jobs that are still running", rescue, jt.Max, JobGrace)
	}
	cfg := &river.Config{
		ID:                   clientID(o.Host),
		Queues:               map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: max(o.Workers, 1)}},
		Workers:              workers,
		FetchPollInterval:    o.FetchPollInterval,
		FetchCooldown:        min(o.FetchPollInterval, 100*time.Millisecond),
		MaxAttempts:          MaxAttempts,
		Logger:               o.Logger,
		RetryPolicy:          retryPolicy{},
		JobTimeout:           jt.Default,
		RescueStuckJobsAfter: rescue,
	}
	if IsPostgres(o.URL) {
		return openPostgres(ctx, o.URL, cfg)
	}
	return openSQLite(ctx, sqlitePath(o), cfg)
}

func sqlitePath(o QueueOptions) string {
	if o.URL != "" {
		return strings.TrimPrefix(o.URL, "sqlite://")
	}
	return filepath.Join(o.Home, "queue.db")
}

func openSQLite(ctx context.Context, path string, cfg *river.Config) (queue, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)") // WAL: a committed job survives a killed process
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("queue: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // SQLite allows one writer; River's own advice
	cfg.PollOnly = true
	rq, err := newRiverQueue(ctx, riversqlite.New(db), cfg, db, false, func() { db.Close() })
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("queue %s: %w", path, err)
	}
	return rq, nil
}

func openPostgres(ctx context.Context, u string, cfg *river.Config) (queue, error) {
	pool, err := pgxpool.New(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("queue: postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("queue: postgres: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	rq, err := newRiverQueue(ctx, riverpgxv5.New(pool), cfg, db, true, func() { db.Close(); pool.Close() })
	if err != nil {
		db.Close()
		pool.Close()
		return nil, fmt.Errorf("queue: postgres: %w", err)
	}
	return rq, nil
}

func newRiverQueue[TTx any](ctx context.Context, drv riverdriver.Driver[TTx], cfg *river.Config, db *sql.DB, pg bool, closeFn func()) (*riverQueue[TTx], error) {
	if err := migrate(ctx, drv, db, pg); err != nil {
		return nil, err
	}
	c, err := river.NewClient(drv, cfg)
	if err != nil {
		return nil, err
	}
	return &riverQueue[TTx]{client: c, sqlDB: db, pg: pg, close: closeFn}, nil
}

// migrateLockKey is the Postgres advisory lock that serialises the queue's
// migration (River's tables, then skillc's) across hosts starting at once
// on one database. The trace schema takes its own lock (internal/host/trace).
const migrateLockKey = 0x736b696c6c71 // "skillq"

// migrate brings River's tables and skillc's queue tables up to date. On
// Postgres it holds a session advisory lock on a connection of its own
// for the whole migration: River's migrator takes none, and two hosts
// creating the same tables at once fail on the catalog's unique indexes.
func migrate[TTx any](ctx context.Context, drv riverdriver.Driver[TTx], db *sql.DB, pg bool) error {
	if pg {
		conn, err := db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
			return fmt.Errorf("migrate: take the migration lock: %w", err)
		}
		defer func() {
			uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			_, _ = conn.ExecContext(uctx, "SELECT pg_advisory_unlock($1)", migrateLockKey)
		}()
	}
	m, err := rivermigrate.New(drv, nil)
	if err != nil {
		return err
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, ddl := range []string{triggerSchema, heartbeatSchema} {
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}

// retryPolicy retries a retryable failure after 2s, 8s, 32s, ...
type retryPolicy struct{}

// NextRetry implements river.ClientRetryPolicy.
func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	d := 2 * time.Second
	for i := 1; i < job.Attempt; i++ {
		d *= 4
	}
	return time.Now().Add(d)
}

// attemptTraceID is the trace id of one attempt of a job: the job's own
// for the first, with "-N" appended for attempt N > 1 ("" stays "").
func attemptTraceID(base string, attempt int) string {
	if base == "" || attempt <= 1 {
		return base
	}
	return fmt.Sprintf("%s-%d", base, attempt)
}

// worker runs fires through the Runner.
type worker struct {
	river.WorkerDefaults[FireArgs]
	run Runner
	log *slog.Logger
	// pg: the queue is on Postgres, where a job can complete in the
	// transaction of its run's final trace row
	pg bool
}

// completeTx completes job inside tx, a transaction on the queue's
// Postgres database; ctx must carry the worker's River client.
func completeTx(ctx context.Context, tx pgx.Tx, job *river.Job[FireArgs]) error {
	_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
	return err
}

// Timeout is the job's own timeout (FireArgs.TimeoutMS), else the
// client's default.
func (w *worker) Timeout(job *river.Job[FireArgs]) time.Duration {
	return time.Duration(job.Args.TimeoutMS) * time.Millisecond
}

// Work runs one fire; a *Refusal cancels the job (never retried).
func (w *worker) Work(ctx context.Context, job *river.Job[FireArgs]) error {
	a := job.Args
	var complete func(context.Context, pgx.Tx) error
	if w.pg {
		// cctx derives from ctx, which carries the River client
		complete = func(cctx context.Context, tx pgx.Tx) error { return completeTx(cctx, tx, job) }
	}
	var prior []string
	if a.TraceID != "" {
		for i := 1; i < job.Attempt; i++ {
			prior = append(prior, attemptTraceID(a.TraceID, i))
		}
	}
	err := w.run(ctx, Fire{
		TriggerID: a.TriggerID, Skill: a.Skill, Kind: a.TriggerKind, Spec: a.Spec,
		FireAt: time.UnixMilli(cmp.Or(a.FiredAtMS, a.FireAt)).UTC(), TraceID: attemptTraceID(a.TraceID, job.Attempt), Params: a.Params, Attempt: job.Attempt,
		Prior: prior, Complete: complete,
	})
	var ref *Refusal
	var busy *Busy
	switch {
	case errors.As(err, &ref):
		w.log.Warn("fire refused; not retried", "skill", a.Skill, "trigger", a.TriggerID, "trace_id", a.TraceID, "reason", ref.Error())
		return river.JobCancel(err)
	case errors.As(err, &busy):
		return river.JobSnooze(busy.After)
	}
	return err
}
