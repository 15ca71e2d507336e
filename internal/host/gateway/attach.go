package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/trace"
)

// The inputs through which an attached skillscript receives its target;
// it must declare TARGET in # Vars: (TARGET_TYPE and TARGET_REF are
// passed when declared).
const (
	InputTarget     = "TARGET"
	InputTargetType = "TARGET_TYPE"
	InputTargetRef  = "TARGET_REF"
)

var targetInputs = []string{InputTarget, InputTargetType, InputTargetRef}

// AttachRequest applies a skill to an existing target.
type AttachRequest struct {
	SkillID    string       `json:"skill_id" jsonschema:"the skill's id (origin/name) or visible name"`
	TargetType string       `json:"target_type" jsonschema:"task, run, output, transcript or artifact"`
	TargetRef  string       `json:"target_ref" jsonschema:"run, output, transcript: a recorded trace id; artifact: a path relative to the artifact root"`
	Inputs     value.Inputs `json:"inputs,omitempty" jsonschema:"other declared inputs of the skill"`
	Options    RunOptions   `json:"options,omitempty"`
}

// AttachResult is the outcome of an attach.
type AttachResult struct {
	SkillID    string    `json:"skill_id"`
	TargetType string    `json:"target_type"`
	TargetRef  string    `json:"target_ref"`
	Execution  Execution `json:"execution"`
	AttachedAt string    `json:"attached_at"` // RFC 3339, UTC
}

// Attach validates and runs an attach: the skill exists, loads and has a
// valid classification; its invocation is attach or both; target_type is
// one of its attach_targets; target_ref names a real target (a recorded
// run, its output or transcript, an artifact under the artifact root).
// Any failure is an *AttachValidationError and nothing runs. The target's
// content reaches the skill as the TARGET input.
func (g *Gateway) Attach(ctx context.Context, req AttachRequest) (*AttachResult, error) {
	rec, reason := g.resolve(req.SkillID)
	if reason != nil {
		return nil, &AttachValidationError{Reason: *reason}
	}
	typ := strings.TrimSpace(req.TargetType)
	all := classification.Values(classification.KeyAttachTargets)
	if !slices.Contains(all, typ) {
		e := attachErr(ReasonUnknownTargetType, "target_type", "unknown target_type %q%s; use one of %s", req.TargetType, closest(typ, all), strings.Join(all, ", "))
		e.Reason.Got, e.Reason.Allowed = req.TargetType, all
		return nil, e
	}
	if !rec.Class.Attachable() {
		inv := "no classification"
		if rec.Class != nil {
			inv = "invocation=" + rec.Class.Invocation
		}
		e := attachErr(ReasonNotAttachable, "skill_id", "skill %s cannot be attached (%s): only skills classified invocation=attach or both can; call it with skills_run", rec.ID, inv)
		e.Reason.Got = rec.ID
		return nil, e
	}
	if !rec.Class.Accepts(typ) {
		e := attachErr(ReasonTargetTypeNotAllowed, "target_type", "skill %s attaches to %s, not %s", rec.ID, strings.Join(rec.Class.AttachTargets, ", "), typ)
		e.Reason.Got, e.Reason.Allowed = typ, rec.Class.AttachTargets
		return nil, e
	}
	if req.Options.TraceID != "" && !reTraceID().MatchString(req.Options.TraceID) {
		return nil, attachErr(ReasonInvalidRequest, "options.trace_id", "trace_id %q: use 1 to 64 letters, digits, '-' or '_'", req.Options.TraceID)
	}
	ref := req.TargetRef
	content, err := g.target(ctx, typ, ref)
	if err != nil {
		return nil, err
	}
	inputs := map[string]any{InputTarget: content, InputTargetType: typ, InputTargetRef: ref}
	out := &AttachResult{SkillID: rec.ID, TargetType: typ, TargetRef: ref}
	if rec.Kind == registry.KindPackage {
		for k, v := range req.Inputs {
			if slices.Contains(targetInputs, k) {
				return nil, attachErr(ReasonInvalidRequest, "inputs."+k, "input %s is set by the gateway from the target; do not pass it", k)
			}
			inputs[k] = v
		}
		out.Execution = packageExecution(rec, inputs)
		out.AttachedAt = g.now().UTC().Format(time.RFC3339Nano)
		return out, nil
	}
	if r := checkInputs(rec, req.Inputs, targetInputs); r != nil {
		return nil, &AttachValidationError{Reason: *r}
	}
	if !slices.Contains(rec.Contract.Vars, InputTarget) {
		return nil, attachErr(ReasonTargetInput, "skill_id", "skill %s does not declare %s in # Vars:, so the target cannot reach it; add # Vars: %s (and optionally %s, %s)", rec.ID, InputTarget, InputTarget, InputTargetType, InputTargetRef)
	}
	for k, v := range req.Inputs {
		inputs[k] = v
	}
	for _, k := range targetInputs[1:] {
		if !slices.Contains(rec.Contract.Vars, k) {
			delete(inputs, k)
		}
	}
	out.AttachedAt = g.now().UTC().Format(time.RFC3339Nano)
	ex, err := g.execute(ctx, ExecRequest{Record: rec, Source: rec.Source(), Inputs: inputs, TraceID: req.Options.TraceID,
		TriggerName: "attach " + typ + " " + ref, Caller: req.Options.Caller})
	if err != nil {
		if r, ok := err.(*Reason); ok {
			return nil, &AttachValidationError{Reason: *r}
		}
		return nil, err
	}
	out.Execution = *ex
	return out, nil
}

// target resolves ref against the real targets of typ and returns the
// content the skill receives.
func (g *Gateway) target(ctx context.Context, typ, ref string) (string, error) {
	if strings.TrimSpace(ref) == "" {
		return "", attachErr(ReasonInvalidRequest, "target_ref", "target_ref is empty: pass a trace id (run, output, transcript) or an artifact path")
	}
	switch typ {
	case classification.TargetArtifact:
		return g.artifact(ref)
	case classification.TargetTask:
		return "", attachErr(ReasonTargetUnavailable, "target_type", "this host has no task store, so task targets cannot be resolved")
	}
	if g.tr == nil {
		return "", attachErr(ReasonTargetUnavailable, "target_type", "this host records no traces, so %s targets cannot be resolved", typ)
	}
	if !reTraceID().MatchString(ref) {
		return "", attachErr(ReasonInvalidRequest, "target_ref", "target_ref %q is not a trace id (letters, digits, '-' or '_')", ref)
	}
	run, _, err := g.tr.Get(ctx, ref)
	if errors.Is(err, trace.ErrNotFound) {
		e := attachErr(ReasonTargetNotFound, "target_ref", "no recorded run has trace id %q", ref)
		e.Reason.Got = ref
		return "", e
	}
	if err != nil {
		return "", err
	}
	if run.Status == trace.StatusRunning {
		return "", attachErr(ReasonTargetNotFound, "target_ref", "run %s is still running; attach to it when it has finished", ref)
	}
	switch typ {
	case classification.TargetOutput:
		if run.Output == "" {
			return "", attachErr(ReasonTargetNotFound, "target_ref", "run %s (%s, %s) recorded no output", ref, run.Skill, run.Status)
		}
		return run.Output, nil
	case classification.TargetTranscript:
		var b strings.Builder
		for _, op := range run.Ops {
			fmt.Fprintf(&b, "%s%s/%s line %d: %s -> %s", strings.Repeat("  ", op.Depth), op.Skill, op.Target, op.Line, op.Op, op.Outcome)
			if op.ErrorKind != "" {
				fmt.Fprintf(&b, " (%s)", op.ErrorKind)
			}
			if op.Detail != "" {
				fmt.Fprintf(&b, ": %s", op.Detail)
			}
			b.WriteByte('\n')
		}
		return b.String(), nil
	}
	summary := struct {
		TraceID    string    `json:"trace_id"`
		Skill      string    `json:"skill"`
		Status     string    `json:"status"`
		Trigger    string    `json:"trigger_kind"`
		StartedAt  time.Time `json:"started_at"`
		DurationMS int64     `json:"duration_ms"`
		Inputs     any       `json:"inputs"`
		Output     string    `json:"output"`
		Errors     any       `json:"errors"`
		Ops        int       `json:"ops"`
	}{run.ID, run.Skill, run.Status, run.Trigger, run.StartedAt, run.DurationMS, run.Inputs, run.Output, run.Errors, len(run.Ops)}
	data, err := json.Marshal(summary)
	return string(data), err
}

// artifact reads ref under the artifact root through os.Root: absolute
// paths, ".." and symbolic links leaving the root are refused.
func (g *Gateway) artifact(ref string) (string, error) {
	if g.root == "" {
		return "", attachErr(ReasonTargetUnavailable, "target_type", "this host has no artifact root, so artifact targets cannot be resolved")
	}
	if !filepath.IsLocal(filepath.FromSlash(ref)) {
		e := attachErr(ReasonTargetOutsideRoot, "target_ref", "artifact %q is not a path inside the artifact root (absolute, empty or with ..)", ref)
		e.Reason.Got = ref
		return "", e
	}
	root, err := g.artifactRoot()
	if err != nil {
		return "", attachErr(ReasonTargetUnavailable, "target_type", "artifact root: %v", err)
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(ref))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e := attachErr(ReasonTargetNotFound, "target_ref", "no artifact %q under the artifact root", ref)
		e.Reason.Got = ref
		return "", e
	case err != nil:
		e := attachErr(ReasonTargetOutsideRoot, "target_ref", "artifact %q cannot be opened inside the artifact root: %v", ref, rootErr(err))
		e.Reason.Got = ref
		return "", e
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", attachErr(ReasonTargetNotFound, "target_ref", "artifact %q is not a regular file", ref)
	}
	if st.Size() > g.cfg.MaxTargetBytes {
		return "", attachErr(ReasonInvalidRequest, "target_ref", "artifact %q is %d bytes, over the limit of %d", ref, st.Size(), g.cfg.MaxTargetBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, g.cfg.MaxTargetBytes+1))
	if err != nil {
		return "", err
	}
	if !utf8.Valid(data) {
		return "", attachErr(ReasonInvalidRequest, "target_ref", "artifact %q is not UTF-8 text", ref)
	}
	return string(data), nil
}

// rootErr strips the path from an os.Root error.
func rootErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
