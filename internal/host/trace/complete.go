package trace

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/skillscript/skillc/eval"
)

// CompleteFunc runs inside the transaction that writes a run's final row
// on a Postgres store, with the run's result: the trigger worker completes
// its River job there (river.JobCompleteTx), so that the final trace row
// and the job's completion commit together or not at all.
type CompleteFunc func(ctx context.Context, tx pgx.Tx, res *eval.Result) error

type completeKey struct{}

// WithComplete returns ctx carrying f for [Store.Exec]. On a SQLite store
// f is ignored (the queue is another file).
func WithComplete(ctx context.Context, f CompleteFunc) context.Context {
	return context.WithValue(ctx, completeKey{}, f)
}

func completeFrom(ctx context.Context) CompleteFunc {
	f, _ := ctx.Value(completeKey{}).(CompleteFunc)
	return f
}

// finishWith writes the final row of run id and its ops in one pgx
// transaction on a connection of the store's pool, runs complete in it,
// and commits.
func (s *Store) finishWith(ctx context.Context, id string, res *eval.Result, ops []Op, finished time.Time, complete CompleteFunc) error {
	status := StatusOK
	if res.Failed() {
		status = StatusFailed
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("trace: connection: %w", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("trace: the Postgres store is not on pgx")
		}
		tx, err := sc.Conn().Begin(ctx)
		if err != nil {
			return fmt.Errorf("trace: begin: %w", err)
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		_, err = tx.Exec(ctx, s.d.rebind(`UPDATE runs SET status=?, finished_at=?, deadline_exceeded=?, uncertain_effects=?, errors=?, fallbacks=?, deliveries=?, output=? WHERE id=?`),
			status, finished.UnixMilli(), res.DeadlineExceeded, mustJSON(res.UncertainEffects), mustJSON(res.Errors),
			mustJSON(res.Fallbacks), mustJSON(res.Receipts), res.Outputs.Text, id)
		if err != nil {
			return fmt.Errorf("trace: update run: %w", err)
		}
		for i, o := range ops {
			_, err := tx.Exec(ctx, s.d.rebind(opInsert), id, i, o.Depth, o.Skill, o.Target, o.Op, o.Line, o.StartedAt.UnixMilli(),
				o.Duration.Microseconds(), o.Outcome, o.ErrorKind, o.Detail)
			if err != nil {
				return fmt.Errorf("trace: op: %w", err)
			}
		}
		if err := complete(ctx, tx, res); err != nil {
			return fmt.Errorf("trace: complete the job with the run: %w", err)
		}
		return tx.Commit(ctx)
	})
}
