package eval

import (
	"encoding/json"

	"github.com/skillscript/skillc/ast"
)

// Result is the outcome of a run. Its JSON form is stable: field names are
// fixed, lists are never null, and object keys keep their order.
type Result struct {
	Skill      string `json:"skill"`
	Status     string `json:"status"` // "ok" or "failed"
	Mechanical bool   `json:"mechanical,omitempty"`
	// FinalVars holds the skill-level variables named in # Returns:.
	FinalVars *orderedVars `json:"final_vars"`
	Outputs   Outputs      `json:"outputs"`
	Emissions []string     `json:"emissions"`
	// Transcript is the execution trace: targets, ops and emissions.
	Transcript  []TraceEntry `json:"transcript"`
	Errors      []ErrorInfo  `json:"errors"`
	Fallbacks   []Fallback   `json:"fallbacks"`
	TargetOrder []string     `json:"target_order"`
	// ElseExecuted lists the targets whose else: handler recovered a failure.
	ElseExecuted     []string  `json:"else_executed"`
	Receipts         []Receipt `json:"agent_delivery_receipts"`
	DeadlineExceeded bool      `json:"deadline_exceeded"`
	UncertainEffects []Effect  `json:"uncertain_effects"`
	Notices          []string  `json:"notices"`

	// stop is the run's failure when it must also fail every caller (see
	// uncatchable): a composing skill re-raises it instead of a
	// containable ChildSkillError.
	stop *RunError
	// Taint of what the run produced: touched says it saw tainted data at
	// all (its caller then taints what it binds from it), emitTaint is
	// per emission, outTaint is Outputs.Text's and outFrom where that
	// text came from.
	touched   bool
	emitTaint []bool
	outTaint  bool
	outFrom   int
}

// Where Outputs.Text came from.
const (
	outNone = iota
	outEmissions
	outOther
)

// Failed reports whether the run failed.
func (r *Result) Failed() bool { return r.Status != statusOK }

// Vars returns the exported final variables as a plain map.
func (r *Result) Vars() map[string]any {
	out := map[string]any{}
	if r.FinalVars != nil {
		for i, k := range r.FinalVars.keys {
			out[k] = r.FinalVars.vals[i]
		}
	}
	return out
}

const (
	statusOK     = "ok"
	statusFailed = "failed"
)

// Outputs is the produced output of a run.
type Outputs struct {
	// Text is the canonical output: the body template if there is one,
	// otherwise the emissions joined with newlines if any emit ran,
	// otherwise the last bound "-> VAR" value.
	Text string `json:"text"`
	// Kinds lists the # Output: kinds in declaration order ("text" when
	// the skill declares none).
	Kinds []string `json:"kinds"`
	// Files lists the paths written by "# Output: file:" targets.
	Files []string `json:"files"`
}

// TraceEntry is one line of the transcript.
type TraceEntry struct {
	Kind   string `json:"kind"` // target, op, emit, fallback, error, else, notice
	Target string `json:"target,omitempty"`
	Op     string `json:"op,omitempty"`
	Line   int    `json:"line,omitempty"`
	Text   string `json:"text"`
}

// Span is a source range in human coordinates (1-based, columns in
// characters).
type Span struct {
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"end_line"`
	EndColumn int `json:"end_column"`
}

// ErrorInfo is one failure recorded in a result.
type ErrorInfo struct {
	Kind    string      `json:"kind"`
	Message string      `json:"message"`
	Target  string      `json:"target,omitempty"`
	Op      string      `json:"op,omitempty"`
	Range   *Span       `json:"range,omitempty"`
	Nested  []ErrorInfo `json:"nested,omitempty"`

	tainted bool // Message derives from a secret: redacted whole at the boundary
}

// Fallback records an op-level (fallback:) that fired.
type Fallback struct {
	Target string `json:"target"`
	Op     string `json:"op"`
	Reason string `json:"reason"`
	Range  *Span  `json:"range,omitempty"`
}

// Receipt records one agent delivery attempt (notify or # Output:).
type Receipt struct {
	Source    string `json:"source"` // "notify" or "output"
	Agent     string `json:"agent"`
	Kind      string `json:"kind"` // augment, template or wake
	Connector string `json:"connector"`
	OK        bool   `json:"ok"`
	Error     string `json:"error,omitempty"`
	// DeliveryID or SessionID as returned by the connector, if any.
	DeliveryID string `json:"delivery_id,omitempty"`
}

// Effect is a mutating op that was in flight when the run was cut off:
// issued, outcome unknown.
type Effect struct {
	Target string `json:"target"`
	Op     string `json:"op"`
	Detail string `json:"detail"`
	Range  *Span  `json:"range,omitempty"`
}

// orderedVars is a name → value map that marshals in insertion order.
type orderedVars struct {
	keys []string
	vals []any
}

func (o *orderedVars) set(k string, v any) {
	for i, key := range o.keys {
		if key == k {
			o.vals[i] = v
			return
		}
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

// MarshalJSON implements json.Marshaler.
func (o *orderedVars) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	if o != nil {
		for i, k := range o.keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			kb, _ := json.Marshal(k)
			buf = append(buf, kb...)
			buf = append(buf, ':')
			buf = append(buf, jsonValue(o.vals[i])...)
		}
	}
	return append(buf, '}'), nil
}

func newResult(f *ast.File) *Result {
	return &Result{
		Skill:            f.SkillName(),
		Status:           statusOK,
		FinalVars:        &orderedVars{},
		Outputs:          Outputs{Kinds: []string{}, Files: []string{}},
		Emissions:        []string{},
		Transcript:       []TraceEntry{},
		Errors:           []ErrorInfo{},
		Fallbacks:        []Fallback{},
		TargetOrder:      []string{},
		ElseExecuted:     []string{},
		Receipts:         []Receipt{},
		UncertainEffects: []Effect{},
		Notices:          []string{},
	}
}
