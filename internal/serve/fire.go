package serve

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/trace"
	"github.com/skillscript/skillc/internal/trigger"
)

// FireTrigger runs one cron or event fire for the trigger service. A
// skill that is not Approved (or is gone) and a policy refusal are
// *trigger.Refusal, never retried; a run that failed for a retryable
// reason (a timeout, an unavailable store, a failed delivery, a cut-off
// run) without uncertain effects is an error River retries; any other
// failure is recorded and not retried.
func (h *Host) FireTrigger(ctx context.Context, f trigger.Fire) error {
	h.countFire(f.Kind)
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
