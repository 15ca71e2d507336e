package trigger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

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
}

// Kind implements river.JobArgs.
func (FireArgs) Kind() string { return "skillc_fire" }

// queue is a River client over SQLite or Postgres, without the TTx type
// parameter.
type queue interface {
	insert(ctx context.Context, args FireArgs, unique bool) (skipped bool, err error)
	// insertUnique inserts cron fires in one transaction; skipped[i] is
	// set for a fire another host already inserted.
	insertUnique(ctx context.Context, args []FireArgs) (skipped []bool, err error)
	start(ctx context.Context) error
	stop(ctx context.Context) error
	db() *sql.DB
	postgres() bool
}

type riverQueue[TTx any] struct {
	client *river.Client[TTx]
	sqlDB  *sql.DB
	pg     bool
	close  func()
}

func (q *riverQueue[TTx]) insert(ctx context.Context, args FireArgs, unique bool) (bool, error) {
	opts := &river.InsertOpts{MaxAttempts: MaxAttempts}
	if unique {
		opts.UniqueOpts = river.UniqueOpts{ByArgs: true}
	}
	res, err := q.client.Insert(ctx, args, opts)
	if err != nil {
		return false, err
	}
	return res.UniqueSkippedAsDuplicate, nil
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

func (q *riverQueue[TTx]) db() *sql.DB    { return q.sqlDB }
func (q *riverQueue[TTx]) postgres() bool { return q.pg }

// MaxAttempts bounds the attempts of one fire (first run plus retries).
const MaxAttempts = 3

// QueueOptions configure the River client.
type QueueOptions struct {
	// URL is a postgres:// URL, or a SQLite file path (default
	// $SKILLSCRIPT_HOME/queue.db when empty).
	URL     string
	Home    string
	Workers int
	// FetchPollInterval is how often idle workers look for jobs.
	FetchPollInterval time.Duration
	Logger            *slog.Logger
}

// IsPostgres reports whether a queue URL selects Postgres.
func IsPostgres(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// openQueue opens the database, migrates River's tables and builds a
// client running worker.
func openQueue(ctx context.Context, o QueueOptions, worker river.Worker[FireArgs]) (queue, error) {
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, worker); err != nil {
		return nil, err
	}
	cfg := &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: max(o.Workers, 1)}},
		Workers:           workers,
		FetchPollInterval: o.FetchPollInterval,
		FetchCooldown:     min(o.FetchPollInterval, 100*time.Millisecond),
		MaxAttempts:       MaxAttempts,
		Logger:            o.Logger,
		RetryPolicy:       retryPolicy{},
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
	m, err := rivermigrate.New(drv, nil)
	if err != nil {
		return nil, err
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	c, err := river.NewClient(drv, cfg)
	if err != nil {
		return nil, err
	}
	return &riverQueue[TTx]{client: c, sqlDB: db, pg: pg, close: closeFn}, nil
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

// worker runs fires through the Runner.
type worker struct {
	river.WorkerDefaults[FireArgs]
	run Runner
	log *slog.Logger
}

// Work runs one fire; a *Refusal cancels the job (never retried).
func (w *worker) Work(ctx context.Context, job *river.Job[FireArgs]) error {
	a := job.Args
	traceID := a.TraceID
	if traceID != "" && job.Attempt > 1 {
		traceID = fmt.Sprintf("%s-%d", traceID, job.Attempt)
	}
	err := w.run(ctx, Fire{
		TriggerID: a.TriggerID, Skill: a.Skill, Kind: a.TriggerKind, Spec: a.Spec,
		FireAt: time.UnixMilli(a.FireAt).UTC(), TraceID: traceID, Params: a.Params, Attempt: job.Attempt,
	})
	var ref *Refusal
	if errors.As(err, &ref) {
		w.log.Warn("fire refused; not retried", "skill", a.Skill, "trigger", a.TriggerID, "reason", ref.Error())
		return river.JobCancel(err)
	}
	return err
}
