package serve

import (
	"context"
	"errors"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/host/gateway"
)

// newGateway builds the skill gateway over the skills runtime's registry:
// skillscripts run through the host (approval gate, trace recording with
// trigger "gateway"), connectors count as wired when the host's registry
// has them.
func (h *Host) newGateway(o Options) {
	if h.skills == nil {
		return
	}
	cfg := gateway.DefaultConfig()
	if o.Gateway != nil {
		cfg = *o.Gateway
	}
	if o.Embedder != nil {
		h.vecFile = o.VectorCache
	}
	h.gw = gateway.New(gateway.Options{
		Registry: h.skills.Registry(), Config: cfg, Traces: h.traces, ArtifactRoot: o.ArtifactRoot,
		Executor: hostExecutor{h}, Embedder: o.Embedder, VectorCache: o.VectorCache,
		Wired: func(c string) bool {
			_, ok := h.Registry().Connectors[c]
			return ok
		},
	})
}

// Gateway returns the skill gateway, or nil when no skills runtime is
// configured.
func (h *Host) Gateway() *gateway.Gateway { return h.gw }

// hostExecutor runs the gateway's skillscripts like execute_skill runs an
// inline source: gated as a composed reach, recorded by the host.
type hostExecutor struct{ h *Host }

func (x hostExecutor) Execute(ctx context.Context, req gateway.ExecRequest) (*eval.Result, string, error) {
	return x.h.Execute(ctx, RunRequest{Source: string(req.Source), Inputs: req.Inputs, Trigger: gateway.TriggerGateway,
		TriggerName: req.TriggerName, Caller: runCaller(ctx, req.Caller), TraceID: req.TraceID})
}

// registerGateway adds skills_discover, skills_list, skills_attach and
// skills_run.
func (ts *toolSet) registerGateway() {
	g := ts.h.gw
	if g == nil {
		return
	}
	addTool(ts, "skills_discover", "Which skill solves this job? Ranks SKILL.md packages and skillscripts for an intent (BM25 plus role, status, tag and read-only tiers); every result has score, score_breakdown and reason_codes. Sidecars appear only for attach intents or role_filter=sidecar.",
		gatewayTool(g.Discover))
	addTool(ts, "skills_list", "List skills by domain, role, status and kind: id, name, kind, role, invocation, effect_mode and status, ordered by id, with pagination (offset, next_offset).",
		gatewayTool(g.List))
	addTool(ts, "skills_attach", "Apply a skill classified invocation=attach|both to a target: a recorded run (target_type run, output or transcript; target_ref = trace id) or an artifact under the artifact root. Validated before anything runs; the target reaches the skill as its TARGET input.",
		func(ctx context.Context, c *call, in gateway.AttachRequest) (gateway.AttachResult, error) {
			in.Options.Caller = ts.h.gatewayCaller(c.caller, in.Options.Caller)
			return gatewayTool(g.Attach)(ctx, c, in)
		})
	addTool(ts, "skills_run", "Run a skill directly: a skillscript runs (gated and traced, trigger gateway); a package returns its load receipt and instructions. Skills classified invocation=attach are refused.",
		func(ctx context.Context, c *call, in gateway.RunRequest) (gateway.RunResponse, error) {
			in.Options.Caller = ts.h.gatewayCaller(c.caller, in.Options.Caller)
			return gatewayTool(g.Run)(ctx, c, in)
		})
}

// gatewayTool adapts a gateway operation to a tool handler: refusals
// become isError results {"error": "AttachValidationError" or
// "RequestError", "message", "details": reason}.
func gatewayTool[In, Out any](fn func(context.Context, In) (*Out, error)) func(context.Context, *call, In) (Out, error) {
	return func(ctx context.Context, _ *call, in In) (Out, error) {
		var zero Out
		out, err := fn(ctx, in)
		if err != nil {
			var ave *gateway.AttachValidationError
			var re *gateway.RequestError
			switch {
			case errors.As(err, &ave):
				return zero, &Error{Name: "AttachValidationError", Message: ave.Reason.Message, Details: ave.Reason, Err: err}
			case errors.As(err, &re):
				return zero, &Error{Name: "RequestError", Message: re.Reason.Message, Details: re.Reason, Err: err}
			}
			return zero, wrapErr(ErrInternal, err)
		}
		return *out, nil
	}
}
