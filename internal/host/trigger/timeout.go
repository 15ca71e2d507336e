package trigger

import (
	"fmt"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

// Defaults of the job timeouts.
const (
	DefaultJobTimeout    = 5 * time.Minute
	DefaultMaxJobTimeout = time.Hour
	// JobGrace is added to a skill's own bound so that the evaluator's
	// deadline (with its onAbort handlers and the final trace write) fires
	// before River cancels the job.
	JobGrace = 10 * time.Second
	// rescueMargin is added to the longest job timeout to make River's
	// rescue window: a job still running past it is stuck.
	rescueMargin = 30 * time.Second
)

// JobTimeouts bound how long River lets one fire's job run. A skill's own
// bound wins over Default: a skill with # Deadline: N gets N plus
// JobGrace; one with only # Timeout: N (a per-op bound) gets the larger
// of Default and N plus JobGrace; one with neither gets Default. A bound
// written as a $(VAR) reference is only known at run time and gets Max.
// Every job timeout is at most Max, and at most RunCeiling plus JobGrace
// when the host caps every run (--max-deadline).
type JobTimeouts struct {
	Default    time.Duration
	Max        time.Duration
	RunCeiling time.Duration
}

// withDefaults fills the zero fields.
func (j JobTimeouts) withDefaults() JobTimeouts {
	if j.Default <= 0 {
		j.Default = DefaultJobTimeout
	}
	if j.Max <= 0 {
		j.Max = max(DefaultMaxJobTimeout, j.Default)
	}
	return j
}

// check refuses a default above the maximum.
func (j JobTimeouts) check() error {
	if j.Default > j.Max {
		return fmt.Errorf("default job timeout %s is longer than the maximum job timeout %s", j.Default, j.Max)
	}
	return nil
}

// RescueAfter is the shortest safe rescue window: the longest a job may
// run plus a margin, so River never rescues a job that is still within
// its own timeout.
func (j JobTimeouts) RescueAfter() time.Duration {
	j = j.withDefaults()
	return j.Max + rescueMargin
}

// For returns the job timeout of a fire of the skill whose source is body.
func (j JobTimeouts) For(name, body string) time.Duration {
	j = j.withDefaults()
	f, _ := syntax.Parse(name, []byte(body))
	d := j.Default
	deadline, dynDeadline := headerSeconds(f, ast.HeaderDeadline)
	timeout, dynTimeout := headerSeconds(f, ast.HeaderTimeout)
	switch {
	case dynDeadline:
		d = j.Max
	case deadline > 0:
		d = deadline + JobGrace
	case dynTimeout:
		d = j.Max
	case timeout > 0:
		d = max(j.Default, timeout+JobGrace)
	}
	if j.RunCeiling > 0 {
		d = min(d, j.RunCeiling+JobGrace)
	}
	return min(d, j.Max)
}

// headerSeconds reads a # Timeout: or # Deadline: header: its literal
// value, or dynamic when it is a $(VAR) reference.
func headerSeconds(f *ast.File, kind ast.HeaderKind) (d time.Duration, dynamic bool) {
	h := f.Header(kind)
	if h == nil || h.Duration == nil {
		return 0, false
	}
	if n, ok := h.Duration.(*ast.NumberLit); ok {
		if n.Value <= 0 {
			return 0, false
		}
		return time.Duration(n.Value * float64(time.Second)), false
	}
	return 0, true
}
