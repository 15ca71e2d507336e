package gateway

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/skillrt"
	"github.com/skillscript/skillc/internal/host/trace"
)

// TriggerGateway is the trigger kind of runs the gateway starts; the
// trigger name says which operation ("run", "attach run <ref>").
const TriggerGateway = "gateway"

// ExecRequest is one skillscript run the gateway asks for.
type ExecRequest struct {
	Record      *registry.Record
	Source      []byte
	Inputs      map[string]any
	TraceID     string // empty: a fresh id
	TriggerName string
	Caller      string
}

// Executor runs a skillscript and records it: it returns the result and
// the trace id. Approval gating is the executor's (its runner's) job.
type Executor interface {
	Execute(ctx context.Context, req ExecRequest) (*eval.Result, string, error)
}

// TracedExecutor runs with a copy of Runner (whose Admit hook applies the
// approval gate) and records every run in Traces with trigger "gateway".
type TracedExecutor struct {
	Runner  *eval.Runner
	Traces  *trace.Store
	Secrets []string // values redacted from recorded inputs
}

// Execute implements Executor.
func (x *TracedExecutor) Execute(ctx context.Context, req ExecRequest) (*eval.Result, string, error) {
	meta := trace.Run{ID: req.TraceID, Skill: req.Record.Name, Trigger: TriggerGateway, TriggerName: req.TriggerName, Caller: req.Caller}
	return x.Traces.Exec(ctx, *x.Runner, meta, req.Record.Location, req.Source, req.Inputs, x.Secrets)
}

// RunOptions tune a run.
type RunOptions struct {
	// TraceID names the run's trace (letters, digits, '-', '_'; at most
	// 64); empty generates one.
	TraceID string `json:"trace_id,omitempty" jsonschema:"trace id to record the run under (default: generated)"`
	Caller  string `json:"caller,omitempty" jsonschema:"the calling agent's id, recorded with the trace"`
}

// RunRequest runs a skill directly.
type RunRequest struct {
	SkillID string       `json:"skill_id" jsonschema:"the skill's id (origin/name) or visible name"`
	Inputs  value.Inputs `json:"inputs,omitempty" jsonschema:"values of the skill's declared # Vars:"`
	Options RunOptions   `json:"options,omitempty"`
}

// ExecError is one error of a run.
type ExecError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Target  string `json:"target,omitempty"`
	Line    int    `json:"line,omitempty"`
}

// Execution is what a run or an attach did: a skillscript's recorded run,
// or a package's load receipt (packages have no executable semantics
// beyond their scripts; the agent follows the instructions).
type Execution struct {
	Kind    string         `json:"kind"` // "skillscript" or "agentskill"
	TraceID string         `json:"trace_id,omitempty"`
	Status  string         `json:"status,omitempty"` // ok or failed (skillscripts)
	Output  string         `json:"output,omitempty"`
	Returns map[string]any `json:"returns,omitempty"`
	Errors  []ExecError    `json:"errors,omitempty"`
	// Receipt and Instructions describe a package; Inputs are what the
	// agent applies the instructions to (for attach: the target).
	Receipt      *skillrt.Receipt `json:"receipt,omitempty"`
	Instructions string           `json:"instructions,omitempty"`
	Inputs       value.Inputs     `json:"inputs,omitempty"`
}

// RunResponse is the result of a run.
type RunResponse struct {
	SkillID   string    `json:"skill_id"`
	Execution Execution `json:"execution"`
}

var reTraceID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`) })

// Run runs a skill directly: a skillscript through the executor (recorded
// with trigger "gateway"), a package by returning its load receipt. A
// skill classified invocation=attach is refused; so is a skill whose
// classification has errors, and undeclared inputs.
func (g *Gateway) Run(ctx context.Context, req RunRequest) (*RunResponse, error) {
	rec, reason := g.resolve(req.SkillID)
	if reason != nil {
		return nil, &RequestError{Reason: *reason}
	}
	if req.Options.TraceID != "" && !reTraceID().MatchString(req.Options.TraceID) {
		return nil, reqErr(ReasonInvalidRequest, "options.trace_id", "trace_id %q: use 1 to 64 letters, digits, '-' or '_'", req.Options.TraceID)
	}
	if !rec.Class.Callable() {
		e := reqErr(ReasonNotCallable, "skill_id", "skill %s is classified invocation=attach: it runs only attached to a target (skills_attach with target_type one of %s)", rec.ID, strings.Join(rec.Class.AttachTargets, ", "))
		e.Reason.Allowed = rec.Class.AttachTargets
		return nil, e
	}
	if rec.Kind == registry.KindPackage {
		return &RunResponse{SkillID: rec.ID, Execution: packageExecution(rec, req.Inputs)}, nil
	}
	if err := checkInputs(rec, req.Inputs, nil); err != nil {
		return nil, &RequestError{Reason: *err}
	}
	ex, err := g.execute(ctx, ExecRequest{Record: rec, Source: rec.Source(), Inputs: req.Inputs, TraceID: req.Options.TraceID, TriggerName: "run", Caller: req.Options.Caller})
	if err != nil {
		if r, ok := err.(*Reason); ok {
			return nil, &RequestError{Reason: *r}
		}
		return nil, err
	}
	return &RunResponse{SkillID: rec.ID, Execution: *ex}, nil
}

// Error makes a Reason usable as an error inside the package.
func (r *Reason) Error() string { return r.Message }

// execute runs a skillscript through the executor.
func (g *Gateway) execute(ctx context.Context, req ExecRequest) (*Execution, error) {
	if g.exec == nil {
		return nil, &Reason{Code: ReasonNotRunnable, Field: "skill_id", Message: "this gateway has no executor: skillscripts cannot run here"}
	}
	res, id, err := g.exec.Execute(ctx, req)
	if err != nil && res == nil {
		// the run did not start: the approval gate, a shutting-down host
		return nil, &Reason{Code: ReasonRunRefused, Field: "skill_id", Got: req.Record.ID, Message: fmt.Sprintf("the host refused to run %s: %v", req.Record.ID, err)}
	}
	ex := &Execution{Kind: string(registry.KindScript), TraceID: id}
	if res != nil {
		ex.Status, ex.Output = res.Status, res.Outputs.Text
		if v := res.Vars(); len(v) > 0 {
			ex.Returns = v
		}
		for _, e := range res.Errors {
			ee := ExecError{Kind: e.Kind, Message: e.Message, Target: e.Target}
			if e.Range != nil {
				ee.Line = e.Range.Line
			}
			ex.Errors = append(ex.Errors, ee)
		}
	}
	if err != nil {
		ex.Status = trace.StatusAborted
		ex.Errors = append(ex.Errors, ExecError{Kind: "Aborted", Message: err.Error()})
	}
	return ex, nil
}

// packageExecution is a package's load receipt with its instructions.
func packageExecution(rec *registry.Record, inputs map[string]any) Execution {
	r := skillrt.ReceiptOf(rec)
	return Execution{Kind: string(registry.KindPackage), Receipt: &r, Instructions: rec.Text(), Inputs: inputs}
}

// resolve finds a visible skill by id or name and checks it may be used.
func (g *Gateway) resolve(id string) (*registry.Record, *Reason) {
	id = strings.TrimSpace(id)
	if id == "" {
		return nil, &Reason{Code: ReasonInvalidRequest, Field: "skill_id", Message: "skill_id is empty"}
	}
	rec, ok := g.reg.Lookup(id)
	if !ok {
		for _, r := range g.reg.All() {
			if r.ID == id || r.Name == id {
				return nil, &Reason{Code: ReasonNotLoadable, Field: "skill_id", Got: id, Message: fmt.Sprintf("skill %s does not load: %s", r.ID, firstError(r))}
			}
		}
		return nil, &Reason{Code: ReasonUnknownSkill, Field: "skill_id", Got: id, Message: fmt.Sprintf("no skill %q%s", id, closest(id, g.reg.Names()))}
	}
	if len(rec.ClassProblems) > 0 {
		return nil, &Reason{Code: ReasonInvalidClassification, Field: "skill_id", Got: rec.ID,
			Message: fmt.Sprintf("skill %s has an invalid classification (%s: %s); fix it before running or attaching it", rec.ID, rec.Location, strings.Join(rec.ClassProblems, "; "))}
	}
	return rec, nil
}

// firstError describes why a record does not load.
func firstError(r *registry.Record) string {
	for _, d := range r.Diagnostics() {
		if d.Severity.String() == "error" {
			return d.Message
		}
	}
	if r.ShadowedBy != "" {
		return "shadowed by " + r.ShadowedBy
	}
	return "it is disabled or collides with another skill"
}

// checkInputs refuses inputs the skillscript does not declare; reserved
// keys (the attach target inputs) may not be passed by the caller.
func checkInputs(rec *registry.Record, inputs map[string]any, reserved []string) *Reason {
	var vars []string
	if rec.Contract != nil {
		vars = rec.Contract.Vars
	}
	for k := range inputs {
		if slices.Contains(reserved, k) {
			return &Reason{Code: ReasonInvalidRequest, Field: "inputs." + k, Got: k, Message: fmt.Sprintf("input %s is set by the gateway from the target; do not pass it", k)}
		}
		if !slices.Contains(vars, k) {
			return &Reason{Code: ReasonInvalidRequest, Field: "inputs." + k, Got: k, Allowed: vars,
				Message: fmt.Sprintf("skill %s declares no input %s%s (# Vars: %s)", rec.ID, k, closest(k, vars), strings.Join(vars, ", "))}
		}
	}
	return nil
}
