package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skillscript/skillc/internal/host/trace"
)

// Environment variables of autonomous-fire supervision.
const (
	EnvSupervisorSkill = "SKILLSCRIPT_SUPERVISOR_SKILL"
	EnvSupervisorAgent = "SKILLSCRIPT_SUPERVISOR_AGENT"
)

// TriggerSupervisor is the trigger kind recorded for supervisor handler
// runs; they are never swept themselves, so a failing handler cannot
// loop.
const TriggerSupervisor = "supervisor"

// CheckSupervisor refuses a configured supervisor the host cannot feed:
// the sweeper reads the trace store, so tracing must be on.
func (s Settings) CheckSupervisor() error {
	if s.SupervisorSkill != "" && !s.Trace {
		return fmt.Errorf("%s=%s needs run tracing (the supervisor reads the trace store): drop --trace off or unset %s",
			EnvSupervisorSkill, s.SupervisorSkill, EnvSupervisorSkill)
	}
	return nil
}

// Sweep routes every non-clean autonomous fire (failed, aborted, cut by
// its deadline or with uncertain effects) recorded since the last sweep to
// the supervisor skill, at most once per fire. It runs after each
// scheduler tick; it is a no-op without a supervisor. It returns how many
// fires it routed.
func (h *Host) Sweep(ctx context.Context) int {
	if h.set.SupervisorSkill == "" || h.traces == nil {
		return 0
	}
	runs, err := h.traces.Unsupervised(ctx, h.set.SupervisorSkill, 100)
	if err != nil {
		h.log.Error("supervisor sweep", "err", err)
		return 0
	}
	n := 0
	for _, r := range runs {
		first, err := h.traces.MarkSupervised(ctx, r.ID)
		if err != nil || !first {
			continue
		}
		n++
		h.superviseOne(ctx, r)
	}
	return n
}

// superviseOne runs the handler for one failed fire. A handler that fails
// is logged and not routed anywhere (there is nothing left to page).
func (h *Host) superviseOne(ctx context.Context, r trace.Run) {
	res, id, err := h.Execute(ctx, RunRequest{
		Name: h.set.SupervisorSkill, Inputs: supervisorInputs(r, h.set.SupervisorAgent),
		Trigger: TriggerSupervisor, TriggerName: r.ID,
	})
	switch {
	case err != nil:
		h.log.Error("supervisor handler did not run", "handler", h.set.SupervisorSkill, "failed_trace", r.ID, "err", err)
	case res.Failed():
		h.log.Error("supervisor handler failed", "handler", h.set.SupervisorSkill, "trace_id", id, "failed_trace", r.ID)
	default:
		h.log.Info("failed fire routed to the supervisor", "skill", r.Skill, "failed_trace", r.ID, "handler_trace", id)
	}
}

// supervisorInputs are the handler's variables for one failed fire.
func supervisorInputs(r trace.Run, agent string) map[string]any {
	outcome := "errored"
	switch {
	case r.DeadlineExceeded:
		outcome = "deadline-exceeded"
	case r.Status == trace.StatusOK && len(r.UncertainEffects) > 0:
		outcome = "uncertain-effects"
	}
	var msgs []string
	for _, e := range r.Errors {
		msgs = append(msgs, e.Kind+": "+e.Message)
	}
	if r.AbortReason != "" {
		msgs = append(msgs, "aborted: "+r.AbortReason)
	}
	unc, _ := json.Marshal(r.UncertainEffects)
	return map[string]any{
		"FAILED_SKILL": r.Skill, "OUTCOME": outcome, "TRACE_ID": r.ID, "TRIGGER": r.Trigger,
		"ERROR_SUMMARY": strings.Join(msgs, "; "), "UNCERTAIN_EFFECTS": string(unc),
		"DEADLINE_EXCEEDED": fmt.Sprint(r.DeadlineExceeded), "SUPERVISOR_AGENT": agent,
	}
}
