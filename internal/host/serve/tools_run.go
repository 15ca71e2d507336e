package serve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/internal/host/footprint"
)

// SkillRef names a stored skill or carries an inline source.
type SkillRef struct {
	Name   string `json:"name,omitempty" jsonschema:"stored skill name (give name or source)"`
	Source string `json:"source,omitempty" jsonschema:"inline skill source (give name or source)"`
}

// ExecuteInput is the input of execute_skill.
type ExecuteInput struct {
	Name       string       `json:"name,omitempty" jsonschema:"stored skill name (give name or source)"`
	Source     string       `json:"source,omitempty" jsonschema:"inline skill source (give name or source)"`
	Inputs     value.Inputs `json:"inputs,omitempty" jsonschema:"values of the skill's # Vars:"`
	Mechanical bool         `json:"mechanical,omitempty" jsonschema:"walk the whole graph without side effects"`
}

// ExecuteOutput is the output of execute_skill.
type ExecuteOutput struct {
	TraceID string `json:"trace_id"`
	Skill   string `json:"skill"`
	Status  string `json:"status" jsonschema:"ok or failed"`
	// Output is the canonical output text.
	Output string `json:"output"`
	// Result is the full run result (final_vars, outputs, emissions,
	// transcript, errors, fallbacks, deliveries, deadline_exceeded,
	// uncertain_effects, notices), as skillc run --json prints it.
	Result map[string]any `json:"result"`
}

func (ts *toolSet) executeSkill(ctx context.Context, c *call, in ExecuteInput) (ExecuteOutput, error) {
	if err := oneOf(in.Name, in.Source); err != nil {
		return ExecuteOutput{}, err
	}
	if in.Source != "" {
		// An inline source is linted like a skill_write: one with lint
		// errors is refused before anything runs.
		const file = "inline.skill.md"
		_, _, ds := ts.h.analyze(ctx, file, []byte(in.Source))
		if errs := errorsOnly(ds); len(errs) > 0 {
			return ExecuteOutput{}, &Error{Name: ErrLint, Details: diagsJSON(file, []byte(in.Source), errs),
				Message: fmt.Sprintf("not run: %d lint error(s); the first: %s", len(errs), errs[0].Message)}
		}
	}
	res, id, err := ts.h.Execute(ctx, RunRequest{
		Name: in.Name, Source: in.Source, Inputs: in.Inputs, Mechanical: in.Mechanical,
		Trigger: contract.TriggerAgent, Caller: c.caller,
	})
	if err != nil {
		return ExecuteOutput{}, err
	}
	return executeOutput(id, res), nil
}

func executeOutput(id string, res *eval.Result) ExecuteOutput {
	out := ExecuteOutput{TraceID: id, Skill: res.Skill, Status: res.Status, Output: res.Outputs.Text, Result: map[string]any{}}
	if b, err := json.Marshal(res); err == nil {
		_ = value.DecodeJSONNumbers(b, &out.Result) // numbers keep their text
	}
	return out
}

// oneOf checks that exactly one of name and source is given.
func oneOf(name, source string) error {
	switch {
	case name == "" && source == "":
		return invalidParams("give name or source")
	case name != "" && source != "":
		return invalidParams("give name or source, not both")
	}
	return nil
}

// source returns the text of a skill reference and its display name.
func (h *Host) source(ctx context.Context, ref SkillRef) (string, []byte, error) {
	if err := oneOf(ref.Name, ref.Source); err != nil {
		return "", nil, err
	}
	if ref.Source != "" {
		return "inline.skill.md", []byte(ref.Source), nil
	}
	rec, err := h.load(ctx, ref.Name)
	if err != nil {
		return "", nil, err
	}
	return ref.Name + ".skill.md", []byte(rec.Body), nil
}

// LintOutput is the output of lint_skill.
type LintOutput struct {
	File        string        `json:"file"`
	Diagnostics []render.Diag `json:"diagnostics"`
	Summary     diagSummary   `json:"summary"`
}

func (ts *toolSet) lintSkill(ctx context.Context, _ *call, in SkillRef) (LintOutput, error) {
	file, src, err := ts.h.source(ctx, in)
	if err != nil {
		return LintOutput{}, err
	}
	_, _, ds := ts.h.analyze(ctx, file, src)
	return LintOutput{File: file, Diagnostics: diagsJSON(file, src, ds), Summary: summarize(ds)}, nil
}

// CompileOutput is the output of compile_skill.
type CompileOutput struct {
	Skill       string        `json:"skill"`
	OK          bool          `json:"ok" jsonschema:"true when there are no error diagnostics"`
	Status      string        `json:"status"`
	Goal        string        `json:"goal" jsonschema:"the default: target"`
	RunOrder    []string      `json:"run_order" jsonschema:"targets in run order"`
	Inputs      []VarInfo     `json:"inputs"`
	Returns     []string      `json:"returns"`
	Triggers    []TriggerDecl `json:"triggers"`
	Outputs     []string      `json:"outputs"`
	Secrets     []string      `json:"secrets"`
	Autonomous  bool          `json:"autonomous"`
	Footprint   Footprint     `json:"footprint"`
	Diagnostics []render.Diag `json:"diagnostics" jsonschema:"error diagnostics"`
}

// VarInfo is one # Vars: input.
type VarInfo struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
}

// TriggerDecl is one # Triggers: entry.
type TriggerDecl struct {
	Kind string `json:"kind"`
	Spec string `json:"spec"`
}

func (ts *toolSet) compileSkill(ctx context.Context, _ *call, in SkillRef) (CompileOutput, error) {
	file, src, err := ts.h.source(ctx, in)
	if err != nil {
		return CompileOutput{}, err
	}
	f, info, ds := ts.h.analyze(ctx, file, src)
	errs := errorsOnly(ds)
	out := CompileOutput{
		Skill: f.SkillName(), OK: len(errs) == 0, Status: info.Status, Autonomous: info.Autonomous,
		Footprint: footprint.Of(f, info), Diagnostics: diagsJSON(file, src, errs),
		RunOrder: []string{}, Inputs: varsOf(f), Returns: []string{}, Triggers: triggersOf(f), Outputs: []string{}, Secrets: []string{},
	}
	if g := info.Graph.Goal; g != nil && g.Name != nil {
		out.Goal = g.Name.Name
	}
	for _, t := range info.Graph.Order {
		if t.Name != nil {
			out.RunOrder = append(out.RunOrder, t.Name.Name)
		}
	}
	for _, id := range info.Returns {
		out.Returns = append(out.Returns, id.Name)
	}
	for name := range info.Secrets {
		out.Secrets = append(out.Secrets, name)
	}
	out.Outputs = outputsOf(f)
	return out, nil
}

func varsOf(f *ast.File) []VarInfo {
	out := []VarInfo{}
	for _, hd := range f.HeadersOf(ast.HeaderVars) {
		for _, v := range hd.Vars {
			if v.Name != nil {
				out = append(out, VarInfo{Name: v.Name.Name, Required: v.Default == nil})
			}
		}
	}
	return out
}

func triggersOf(f *ast.File) []TriggerDecl {
	out := []TriggerDecl{}
	for _, hd := range f.HeadersOf(ast.HeaderTriggers) {
		for _, t := range hd.Triggers {
			if t.Source != nil {
				out = append(out, TriggerDecl{Kind: t.Source.Name, Spec: t.Spec})
			}
		}
	}
	return out
}

func outputsOf(f *ast.File) []string {
	out := []string{}
	for _, hd := range f.HeadersOf(ast.HeaderOutput) {
		for _, o := range hd.Outputs {
			if o.Kind == nil {
				continue
			}
			s := o.Kind.Name
			if o.Target != nil {
				s += ": " + textString(o.Target)
			}
			out = append(out, s)
		}
	}
	return out
}

func textString(t *ast.Text) string {
	if v, ok := t.LitValue(); ok {
		return v
	}
	return "(dynamic)"
}
