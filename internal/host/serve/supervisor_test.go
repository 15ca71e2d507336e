package serve

import (
	"context"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/trace"
)

const supHandler = "# Skill: sup\n# Status: Approved\n# Vars: FAILED_SKILL, OUTCOME, TRACE_ID, TRIGGER, ERROR_SUMMARY, UNCERTAIN_EFFECTS, DEADLINE_EXCEEDED, SUPERVISOR_AGENT\n\n${FAILED_SKILL} ${OUTCOME} (${TRIGGER}) via ${SUPERVISOR_AGENT}: ${ERROR_SUMMARY}\n"

func TestSupervisorSweep(t *testing.T) {
	h := newHost(t, Settings{SupervisorSkill: "sup", SupervisorAgent: "ops", Trace: true}, map[string]string{
		"bad":  "# Skill: bad\n# Status: Approved\n# Vars: NEEDED\n\n${NEEDED}\n",
		"good": "# Skill: good\n# Status: Approved\n\nfine\n",
		"sup":  supHandler,
	})
	ctx := context.Background()
	res, failedID, err := h.Execute(ctx, RunRequest{Name: "bad", Trigger: "cron", TriggerName: "0 9 * * *"})
	if err != nil || !res.Failed() {
		t.Fatalf("bad fire: %v %+v", err, res)
	}
	h.Execute(ctx, RunRequest{Name: "good", Trigger: "cron"}) // clean: not routed
	h.Execute(ctx, RunRequest{Name: "bad", Trigger: "agent"}) // interactive: its caller saw it
	if n := h.Sweep(ctx); n != 1 {
		t.Fatalf("first sweep routed %d fires, want 1", n)
	}
	if n := h.Sweep(ctx); n != 0 {
		t.Errorf("second sweep routed %d, want 0 (at most one alert per fire)", n)
	}
	runs, _ := h.traces.Fires(ctx, trace.Filter{Skill: "sup"})
	if len(runs) != 1 || runs[0].Trigger != TriggerSupervisor || runs[0].TriggerName != failedID || runs[0].Status != trace.StatusOK {
		t.Fatalf("handler runs = %+v", runs)
	}
	if out := runs[0].Output; !strings.HasPrefix(out, "bad errored (cron) via ops: MissingInputError") {
		t.Errorf("handler output = %q", out)
	}
}

// A failing handler is not routed back through itself.
func TestSupervisorDoesNotLoop(t *testing.T) {
	h := newHost(t, Settings{SupervisorSkill: "sup", Trace: true}, map[string]string{
		"bad": "# Skill: bad\n# Status: Approved\n# Vars: NEEDED\n\n${NEEDED}\n",
		"sup": "# Skill: sup\n# Status: Approved\n# Vars: NOT_GIVEN\n\n${NOT_GIVEN}\n",
	})
	ctx := context.Background()
	h.Execute(ctx, RunRequest{Name: "bad", Trigger: "event"})
	if n := h.Sweep(ctx); n != 1 {
		t.Fatalf("sweep routed %d", n)
	}
	if n := h.Sweep(ctx); n != 0 {
		t.Errorf("the failed handler was routed again (%d)", n)
	}
	runs, _ := h.traces.Fires(ctx, trace.Filter{Skill: "sup"})
	if len(runs) != 1 || runs[0].Status != trace.StatusFailed {
		t.Errorf("handler runs = %+v", runs)
	}
}

func TestSupervisorNeedsTracing(t *testing.T) {
	if err := (Settings{SupervisorSkill: "sup"}).CheckSupervisor(); err == nil || !strings.Contains(err.Error(), "needs run tracing") {
		t.Errorf("CheckSupervisor without tracing = %v", err)
	}
	if err := (Settings{SupervisorSkill: "sup", Trace: true}).CheckSupervisor(); err != nil {
		t.Error(err)
	}
}
