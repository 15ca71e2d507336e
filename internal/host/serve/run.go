package serve

import (
	"context"
	"errors"
	"time"

	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/workspace"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/host/trace"
)

// RunRequest is one run: a stored skill by Name or an inline Source.
type RunRequest struct {
	Name       string
	Source     string
	Inputs     map[string]any
	Mechanical bool
	// Trigger is how the run was fired (contract.Trigger*); TriggerName
	// the cron expression or event name.
	Trigger     string
	TriggerName string
	// Caller is the authenticated caller's agent id, if any.
	Caller string
	// TraceID, when set, is used as the run's trace id.
	TraceID string
	// FiredAt is the logical fire time of a trigger; zero means now.
	FiredAt time.Time
	// Payload is ${TRIGGER_PAYLOAD} of an event fire.
	Payload any
}

// Execute runs req and returns the result and its trace id. A stored
// skill must be Approved unless the run is mechanical; Disabled never
// runs. Skill failures are in the result; the error reports why the run
// did not start.
func (h *Host) Execute(ctx context.Context, req RunRequest) (*eval.Result, string, error) {
	src, author, err := h.resolve(ctx, req)
	var refused *gateRefusal
	if errors.As(err, &refused) {
		return nil, h.recordRefusal(ctx, req, refused), refused.err
	}
	if err != nil {
		return nil, "", err
	}
	ctx, id, done, err := h.admit(ctx, req.TraceID)
	if err != nil {
		return nil, "", err
	}
	defer done()
	r := h.runnerFor(req, author)
	meta := trace.Run{ID: id, Skill: req.Name, Trigger: req.Trigger, TriggerName: req.TriggerName, Caller: req.Caller}
	start := time.Now()
	file := "inline.skill.md"
	if req.Name != "" {
		file = req.Name + ".skill.md"
	}
	ctx, span := h.tel.StartRun(ctx, id, req.Name, req.Trigger)
	r.Progress = span.Hook(r.Progress)
	res, id, err := h.traces.Exec(ctx, r, meta, file, []byte(src), req.Inputs, h.secrets)
	span.End(res)
	h.observe(req, id, res, time.Since(start))
	if err != nil {
		return res, id, wrapErr(ErrInternal, err)
	}
	return res, id, nil
}

// resolve returns the source to run and its author after the approval
// gate: a run the host starts (an agent's execute_skill, a trigger) is a
// composed reach, so a Disabled skill never runs, a Draft one runs only
// when it performs no effects (or mechanically), and in secured mode an
// Approved one needs a valid signature.
func (h *Host) resolve(ctx context.Context, req RunRequest) (string, string, error) {
	src, author, name := req.Source, "", "inline"
	if req.Name != "" {
		rec, err := h.load(ctx, req.Name)
		if err != nil {
			return "", "", err
		}
		src, author, name = rec.Body, rec.Author, req.Name
	}
	u := workspace.Parse(name, []byte(src))
	f := u.File
	if n := f.SkillName(); n != "" && req.Name == "" {
		name = n
	}
	s := approval.Subject{Name: name, File: f, Info: u.Info, Reach: approval.Composed, Mechanical: req.Mechanical}
	if _, err := approval.Gate(h.policy, s); err != nil {
		kind := "ApprovalError"
		var r approval.Refusal
		if errors.As(err, &r) {
			kind = r.Kind()
		}
		return "", "", &gateRefusal{err: &Error{Name: kind, Message: err.Error(), Err: err}, name: name, src: src}
	}
	return src, author, nil
}

// gateRefusal is resolve's error when the approval gate refused a
// resolved skill: the host error plus what the trace row needs.
type gateRefusal struct {
	err       *Error
	name, src string
}

func (g *gateRefusal) Error() string { return g.err.Error() }

// recordRefusal writes the trace row of a run the gate refused before its
// first op (status refused, its only error the refusal), so that a
// refused cron or event fire shows in fires and health, reaches the
// supervisor, and the run_id /event answered with resolves. It returns
// the trace id, "" without a trace store.
func (h *Host) recordRefusal(ctx context.Context, req RunRequest, g *gateRefusal) string {
	if h.traces == nil {
		return ""
	}
	meta := trace.Run{ID: req.TraceID, Skill: g.name, Trigger: req.Trigger, TriggerName: req.TriggerName, Caller: req.Caller, Mechanical: req.Mechanical}
	id, err := h.traces.Refused(ctx, meta, g.src, req.Inputs, h.secrets, eval.ErrorInfo{Kind: g.err.Name, Message: g.err.Message})
	if err != nil {
		h.log.Warn("refused run not traced", "skill", g.name, "trace_id", req.TraceID, "err", err)
	}
	return id
}

// load reads a stored skill.
func (h *Host) load(ctx context.Context, name string) (*contract.SkillRecord, error) {
	store := h.Skills()
	if store == nil {
		return nil, hostErr(ErrNoSkillStore, "no skill store is configured")
	}
	rec, err := store.Get(ctx, name)
	if err != nil {
		return nil, wrapErr(ErrStore, err)
	}
	if rec == nil {
		return nil, hostErr(ErrSkillNotFound, "skill %q not found", name)
	}
	return rec, nil
}

// runnerFor copies the base runner for one run.
func (h *Host) runnerFor(req RunRequest, author string) eval.Runner {
	r := *h.runner
	r.Mechanical = r.Mechanical || req.Mechanical
	r.Identity = author
	r.Env.Caller = req.Caller
	if req.Mechanical && !h.runner.Mechanical {
		r.Load = host.GatedLoad(h.policy, true) // children of a mechanical walk are walked too
	}
	r.Env.TriggerType, r.Env.TriggerName = deliveryTrigger(req.Trigger), req.TriggerName
	r.Env.FiredAt, r.Env.TriggerPayload = req.FiredAt, req.Payload
	return r
}

// deliveryTrigger is the trigger kind a run reports in delivery origins
// (a closed set): a supervisor handler reacts inline to a failed fire.
func deliveryTrigger(kind string) string {
	if kind == TriggerSupervisor {
		return contract.TriggerInline
	}
	return kind
}

// admit registers an in-flight run, refusing new runs while draining.
// The returned context is cancelled by Shutdown's hard stop.
func (h *Host) admit(ctx context.Context, id string) (context.Context, string, func(), error) {
	if id == "" {
		id = trace.NewID()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.draining {
		return nil, "", nil, hostErr(ErrShuttingDown, "the host is shutting down and accepts no new runs")
	}
	ctx, cancel := context.WithCancel(ctx)
	h.inflight[id] = cancel
	h.wg.Add(1)
	h.metrics.inflight.Inc()
	return ctx, id, func() {
		h.mu.Lock()
		delete(h.inflight, id)
		h.mu.Unlock()
		cancel()
		h.metrics.inflight.Dec()
		h.wg.Done()
	}, nil
}

// Drain stops intake, waits up to grace for in-flight runs, then cancels
// the rest (their shell children are killed by the evaluator) and marks
// their traces aborted. It returns the number of runs cut off.
func (h *Host) Drain(grace time.Duration) int {
	h.mu.Lock()
	h.draining = true
	h.mu.Unlock()
	finished := make(chan struct{})
	go func() { h.wg.Wait(); close(finished) }()
	select {
	case <-finished:
		return 0
	case <-time.After(grace):
	}
	h.mu.Lock()
	cut := make([]string, 0, len(h.inflight))
	for id, cancel := range h.inflight {
		cut = append(cut, id)
		cancel()
	}
	h.mu.Unlock()
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
	}
	if h.traces != nil {
		for _, id := range cut {
			_ = h.traces.Abort(context.Background(), id, "host shut down before the run finished")
		}
	}
	h.log.Warn("runs cut off at shutdown", "count", len(cut), "grace", grace.String())
	return len(cut)
}

// Draining reports whether the host stopped accepting runs.
func (h *Host) Draining() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.draining
}

// InFlight returns the number of running runs.
func (h *Host) InFlight() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.inflight)
}
