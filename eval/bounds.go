package eval

import (
	"fmt"

	"github.com/skillscript/skillc/eval/value"
)

// Defaults of the run's resource bounds (Runner.MaxValueBytes, MaxOps,
// MaxMemoryBytes when zero).
const (
	// DefaultMaxValueBytes caps the size of one value: a string, or the
	// estimated size of a list or object.
	DefaultMaxValueBytes = 32 << 20
	// DefaultMaxOps caps the ops one composed run executes: every
	// statement of the root and of every child, each foreach iteration,
	// and childRunCost for each child run started.
	DefaultMaxOps = 1_000_000
	// DefaultMaxMemoryBytes caps the estimated bytes one composed run
	// holds: bound variables and emissions of the root and every child.
	DefaultMaxMemoryBytes = 512 << 20
)

// The kinds of the resource-bound failures. They are fatal and
// uncatchable: no (fallback:) or else: of the skill or of any caller
// contains them.
const (
	KindValueTooLarge = "ValueTooLargeError"
	KindOpBudget      = "OpBudgetExceeded"
	KindMemoryBudget  = "MemoryBudgetExceeded"
)

// budget is shared by a root run and all its children: the composed run's
// op count and memory estimate.
type budget struct {
	ops int64
	mem int64
}

func (r *Runner) maxValueBytes() int64 { return limit(r.MaxValueBytes, DefaultMaxValueBytes) }

func (r *Runner) maxOps() int64 { return limit(r.MaxOps, DefaultMaxOps) }

func (r *Runner) maxMemoryBytes() int64 { return limit(r.MaxMemoryBytes, DefaultMaxMemoryBytes) }

// limit is n, or def when n is zero; a negative n means no bound.
func limit(n, def int64) int64 {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 1<<63 - 1
	}
	return n
}

// childRunCost is what starting a child run (loading, compiling and
// setting it up) counts against the op budget.
const childRunCost = 50

// step counts one statement or foreach iteration against the op budget.
func (x *run) step() error { return x.spend(1) }

// spend counts n ops against the op budget.
func (x *run) spend(n int64) error {
	x.budget.ops += n
	if x.budget.ops > x.lim.ops {
		return x.overOps()
	}
	return nil
}

// overOps is the failure of a run past its op budget.
func (x *run) overOps() error {
	return fatalf(KindOpBudget, "the run executed more than %d ops (the op budget, max_ops / SKILLSCRIPT_MAX_OPS)", x.lim.ops)
}

// checkSize fails when a value of n bytes for variable name (or, when
// name is "", an interpolated text) exceeds the per-value cap.
func (x *run) checkSize(name string, n int64) error {
	if n > x.lim.value {
		return x.tooLarge(name, n)
	}
	return nil
}

// tooLarge is the failure of a value of n bytes over the per-value cap.
func (x *run) tooLarge(name string, n int64) error {
	if max := x.lim.value; n > max {
		what := "the text"
		if name != "" {
			what = "$" + name
		}
		return fatalf(KindValueTooLarge, "%s would hold %s, more than the per-value cap of %s (max_value_bytes / SKILLSCRIPT_MAX_VALUE_BYTES)", what, byteCount(n), byteCount(max))
	}
	return nil
}

// hold adds delta bytes to the run's memory estimate.
func (x *run) hold(delta int64) error {
	x.held += delta
	if x.budget.mem += delta; x.budget.mem <= x.lim.mem || delta <= 0 {
		return nil
	}
	return x.overMemory()
}

// overMemory is the failure of a run past its memory budget.
func (x *run) overMemory() error {
	return fatalf(KindMemoryBudget, "the run would hold about %s, more than its memory budget of %s (max_memory_bytes / SKILLSCRIPT_MAX_MEMORY_BYTES)", byteCount(x.budget.mem), byteCount(x.lim.mem))
}

// limits are the runner's bounds, resolved once per run (a Runner is not
// modified by Run).
type limits struct {
	ops, value, mem int64
}

func (r *Runner) limits() limits {
	return limits{ops: r.maxOps(), value: r.maxValueBytes(), mem: r.maxMemoryBytes()}
}

// release returns the bytes a finished child run held: what its caller
// keeps of it is counted again when bound.
func (x *run) release() {
	x.budget.mem -= x.held
	x.held = 0
}

func byteCount(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// sizeOf estimates the bytes v holds: the length of strings and keys plus
// a small overhead per element. It walks lists and objects.
func sizeOf(v any) int64 {
	if s, ok := v.(string); ok {
		return int64(len(s)) // inlined: the common case
	}
	return sizeOfValue(v)
}

// sizeOfValue is sizeOf of any value.
func sizeOfValue(v any) int64 {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		return int64(len(x))
	case float64, bool:
		return 8
	case value.Numeral:
		return int64(len(x))
	case []any:
		n := int64(24)
		for _, e := range x {
			if _, isNum := e.(float64); isNum {
				n += 16 + 8 // a decoded JSON array's elements, without a call each
				continue
			}
			n += 16 + sizeOf(e)
		}
		return n
	case *value.Object:
		if x == nil {
			return 0
		}
		n := int64(48)
		for k, e := range x.All() {
			n += 32 + int64(len(k)) + sizeOf(e)
		}
		if t, ok := x.Text(); ok {
			n += int64(len(t))
		}
		return n
	}
	return sizeOf(value.Normalize(v))
}
