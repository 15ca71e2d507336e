package trace

import (
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/eval"
)

// Op outcomes.
const (
	OutcomeOK       = "ok"
	OutcomeError    = "error"
	OutcomeFallback = "fallback"
	OutcomeRefused  = "refused"
)

// Op is one executed op of a run (of the root skill or a child).
type Op struct {
	Depth     int           `json:"depth"`
	Skill     string        `json:"skill"`
	Target    string        `json:"target"`
	Op        string        `json:"op"`
	Line      int           `json:"line"`
	StartedAt time.Time     `json:"started_at"`
	Duration  time.Duration `json:"duration_ns"`
	Outcome   string        `json:"outcome"`
	ErrorKind string        `json:"error_kind,omitempty"`
	Detail    string        `json:"detail,omitempty"`
}

// Recorder turns a run's progress events into op records: an op lasts
// from its "op" event to the next event of the run, and a following
// "fallback" or "error" event sets its outcome. Hook is safe for
// concurrent use.
type Recorder struct {
	mu   sync.Mutex
	now  func() time.Time
	ops  []Op
	open []int // per depth: index of the op still running, or -1
	next func(eval.Event)
}

// NewRecorder returns a recorder using now (time.Now when nil) that also
// forwards every event to next, if set.
func NewRecorder(now func() time.Time, next func(eval.Event)) *Recorder {
	if now == nil {
		now = time.Now
	}
	return &Recorder{now: now, next: next}
}

// Hook receives one progress event; pass it as eval.Runner.Progress.
func (r *Recorder) Hook(ev eval.Event) {
	r.mu.Lock()
	r.record(ev)
	r.mu.Unlock()
	if r.next != nil {
		r.next(ev)
	}
}

func (r *Recorder) record(ev eval.Event) {
	t := r.now()
	switch ev.Kind {
	case "op":
		r.closeAt(ev.Depth, t)
		r.setOpen(ev.Depth, len(r.ops))
		r.ops = append(r.ops, Op{Depth: ev.Depth, Skill: ev.Skill, Target: ev.Target, Op: ev.Op, Line: ev.Line, StartedAt: t, Outcome: OutcomeOK})
	case "fallback", "error":
		if i := r.last(ev); i >= 0 && r.ops[i].Outcome == OutcomeOK {
			r.ops[i].Outcome, r.ops[i].Detail = outcomeOf(ev.Kind), ev.Detail
		}
		r.closeAt(ev.Depth, t)
	default:
		r.closeAt(ev.Depth, t)
	}
}

// last returns the op an outcome event refers to: the latest op of the
// same skill, target and line at that depth.
func (r *Recorder) last(ev eval.Event) int {
	for i := len(r.ops) - 1; i >= 0; i-- {
		o := r.ops[i]
		if o.Depth == ev.Depth && o.Skill == ev.Skill && (ev.Line == 0 || o.Line == ev.Line) {
			return i
		}
	}
	return -1
}

func outcomeOf(kind string) string {
	if kind == "fallback" {
		return OutcomeFallback
	}
	return OutcomeError
}

func (r *Recorder) setOpen(depth, i int) {
	for len(r.open) <= depth {
		r.open = append(r.open, -1)
	}
	r.open[depth] = i
}

// closeAt ends the running op at depth and deeper.
func (r *Recorder) closeAt(depth int, t time.Time) {
	for d := depth; d < len(r.open); d++ {
		if i := r.open[d]; i >= 0 {
			if r.ops[i].Duration == 0 {
				r.ops[i].Duration = t.Sub(r.ops[i].StartedAt)
			}
			r.open[d] = -1
		}
	}
}

// Ops returns the recorded ops, with refusals and error kinds filled in
// from res (nil when the run produced no result).
func (r *Recorder) Ops(res *eval.Result) []Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeAt(0, r.now())
	out := append([]Op(nil), r.ops...)
	if res != nil {
		markErrors(out, res.Errors, 0)
	}
	return out
}

// markErrors sets the error kind of the op each error names and marks
// policy refusals.
func markErrors(ops []Op, errs []eval.ErrorInfo, depth int) {
	for _, e := range errs {
		line := 0
		if e.Range != nil {
			line = e.Range.Line
		}
		for i := len(ops) - 1; i >= 0; i-- {
			o := &ops[i]
			if o.Depth == depth && o.Target == e.Target && o.Op == e.Op && (line == 0 || o.Line == line) {
				o.ErrorKind = e.Kind
				if IsRefusal(e.Kind) {
					o.Outcome = OutcomeRefused
				} else if o.Outcome == OutcomeOK {
					o.Outcome = OutcomeError
				}
				break
			}
		}
		markErrors(ops, e.Nested, depth+1)
	}
}

// IsRefusal reports whether an error kind is a policy refusal: the shell
// and filesystem allowlists, unsafe shell, the mutation gate, secrets and
// a Disabled skill. Refusals are never retried.
func IsRefusal(kind string) bool {
	switch kind {
	case eval.KindShellNotAllowed, eval.KindUnsafeDisabled, eval.KindPathNotAllowed,
		eval.KindMutation, eval.KindSecret, eval.KindDisabled:
		return true
	}
	return strings.HasSuffix(kind, "NotApprovedError") || strings.HasSuffix(kind, "SignatureError")
}
