package serve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/host/trigger"
	"github.com/skillscript/skillc/syntax"
)

// FireTrigger runs one cron or event fire for the trigger service. A
// skill that is not Approved (or is gone) and a policy refusal are
// *trigger.Refusal, never retried; a run that failed for a retryable
// reason (a timeout, an unavailable store, a failed delivery, a cut-off
// run) without uncertain effects is an error River retries; any other
// failure is recorded and not retried.
func (h *Host) FireTrigger(ctx context.Context, f trigger.Fire) error {
	h.countFire(f.Kind)
	if done, err := h.lookBeforeRun(ctx, f); done || err != nil {
		return err
	}
	if f.Complete != nil {
		// a run that ends the job completes it in its final row's transaction
		ctx = trace.WithComplete(ctx, func(ctx context.Context, tx pgx.Tx, res *eval.Result) error {
			if !fireDone(res) {
				return nil
			}
			return f.Complete(ctx, tx)
		})
	}
	res, id, err := h.Execute(ctx, RunRequest{
		Name: f.Skill, Inputs: f.Params, Trigger: f.Kind, TriggerName: f.Spec,
		TraceID: f.TraceID, FiredAt: f.FireAt, Payload: f.Params,
	})
	if err != nil {
		var he *Error
		if errors.As(err, &he) && he.Name != ErrShuttingDown && he.Name != ErrInternal {
			return &trigger.Refusal{Reason: he.Error()}
		}
		return err
	}
	if !res.Failed() {
		return nil
	}
	kind := firstKind(res)
	switch {
	case trace.IsRefusal(kind):
		return &trigger.Refusal{Reason: fmt.Sprintf("run %s refused: %s", id, kind)}
	case retryable(kind) && len(res.UncertainEffects) == 0:
		return fmt.Errorf("run %s failed (%s); will retry", id, kind)
	}
	h.log.Warn("fire failed; not retryable", "skill", f.Skill, "trace_id", id, "kind", kind)
	return nil
}

// fireDone reports whether a run's result ends its fire's job as
// completed: it succeeded, or failed for a reason that is neither retried
// nor a refusal (a refused job is cancelled instead).
func fireDone(res *eval.Result) bool {
	if !res.Failed() {
		return true
	}
	kind := firstKind(res)
	return !trace.IsRefusal(kind) && !(retryable(kind) && len(res.UncertainEffects) == 0)
}

func firstKind(res *eval.Result) string {
	if len(res.Errors) == 0 {
		return ""
	}
	return res.Errors[0].Kind
}

func retryable(kind string) bool {
	switch kind {
	case eval.KindTimeout, eval.KindStoreUnavailable, eval.KindDelivery, eval.KindCancelled:
		return true
	}
	return false
}

// busySnooze is how long a job whose earlier attempt still runs in this
// process waits before it looks again.
const busySnooze = 5 * time.Second

// lookBeforeRun makes a retried fire exactly-once: before attempt N runs,
// the trace rows of attempts 1..N-1 are read (the row is written at run
// start, so a run that began left one). It reports done when the job must
// complete without running:
//   - the latest earlier run finished (ok, refused, or failed for a
//     reason not retried): its completion was lost (a killed host, a
//     rescued job), the run is not repeated;
//   - it failed for a retryable reason without uncertain effects: run
//     (an ordinary retry);
//   - it began and never finished (its host died): a skill safe to re-run
//     (no effects at all, or listed in Settings.IdempotentSkills) runs
//     again; any other is recorded aborted, not re-run, and surfaces in
//     health_metrics and the supervisor for the operator to re-fire;
//   - it is still running in this process: the job is snoozed.
//
// No earlier row means no attempt began its run: run.
func (h *Host) lookBeforeRun(ctx context.Context, f trigger.Fire) (bool, error) {
	if h.traces == nil || len(f.Prior) == 0 {
		return false, nil
	}
	var prev *trace.Run
	for i := len(f.Prior) - 1; i >= 0 && prev == nil; i-- {
		r, _, err := h.traces.Get(ctx, f.Prior[i])
		switch {
		case errors.Is(err, trace.ErrNotFound):
			continue
		case err != nil:
			return false, fmt.Errorf("look up the earlier attempt %s: %w", f.Prior[i], err)
		}
		prev = r
	}
	if prev == nil {
		return false, nil
	}
	log := h.log.With("trace_id", prev.ID, "skill", f.Skill, "attempt", f.Attempt)
	interrupted := prev.Status == trace.StatusRunning || (prev.Status == trace.StatusAborted && len(prev.Errors) == 0)
	switch {
	case prev.Status == trace.StatusRunning && h.running(prev.ID):
		return true, &trigger.Busy{After: busySnooze}
	case interrupted && h.rerunnable(ctx, f.Skill):
		log.Warn("re-running an interrupted fire: the skill is safe to re-run")
		return false, nil
	case interrupted:
		reason := fmt.Sprintf("interrupted: the host stopped mid-run (%s); not re-run because skill %s performs effects: check whether they happened, then re-fire it by hand",
			orDefault(prev.AbortReason, "its host is gone"), f.Skill)
		if _, err := h.traces.Interrupted(ctx, prev.ID, reason); err != nil {
			return false, err
		}
		log.Warn("interrupted fire not re-run: the skill performs effects", "status", trace.StatusAborted)
		return true, nil
	case prev.Status == trace.StatusFailed || prev.Status == trace.StatusAborted:
		kind := ""
		if len(prev.Errors) > 0 {
			kind = prev.Errors[0].Kind
		}
		if retryable(kind) && len(prev.UncertainEffects) == 0 && !trace.IsRefusal(kind) {
			return false, nil
		}
	}
	log.Info("fire already ran; its job completes without running it again", "status", prev.Status)
	return true, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// running reports whether run id is in flight in this process.
func (h *Host) running(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.inflight[id]
	return ok
}

// rerunnable reports whether an interrupted run of skill may run again:
// the operator declared it idempotent, or it has no effects at all (no
// dispatch, shell, file, notify, nor a composed child that might have).
func (h *Host) rerunnable(ctx context.Context, skill string) bool {
	if slices.Contains(h.set.IdempotentSkills, skill) {
		return true
	}
	rec, err := h.load(ctx, skill)
	if err != nil {
		return false
	}
	f, _ := syntax.Parse(skill, []byte(rec.Body))
	return len(approval.FootprintOf(f, check.Check(f), h.policy.Mutating).Effects) == 0
}
