package eval

import (
	"context"
	"fmt"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/fsgate"
	"github.com/skillscript/skillc/eval/shellexec"
)

// DefaultMaxDepth is the execute_skill recursion limit when
// Runner.MaxDepth is zero.
const DefaultMaxDepth = 10

// Runner runs skills. Its zero value is usable (see the package doc); set
// the fields to inject effects. A Runner is not modified by Run and may be
// shared by concurrent runs.
type Runner struct {
	// Registry holds the connectors, models, data store, skill store and
	// agent connectors; nil means none.
	Registry *contract.Registry
	// Shell runs shell ops under the binary allowlist; nil refuses all.
	Shell *shellexec.Runner
	// FS confines file_read, file_write and "# Output: file:"; nil refuses
	// every path.
	FS *fsgate.Gate
	// Secrets looks up the value provisioned for {{secret.NAME}}.
	Secrets func(name string) (string, bool)
	// Clock is the time source; nil means time.Now.
	Clock func() time.Time
	// Env holds the ambient values of the run.
	Env Env
	// Mechanical walks the whole graph, including child skills, with no
	// side effects.
	Mechanical bool
	// MaxDepth bounds execute_skill nesting; 0 means DefaultMaxDepth.
	MaxDepth int
	// Progress, when set, receives live progress events. It is called from
	// the goroutine running the skill.
	Progress func(Event)
	// Identity is the identity the root skill runs under (its author);
	// connector calls carry it via contract.WithCallerIdentity.
	Identity string
	// DefaultTimeout bounds each external op without timeout= or
	// # Timeout:; 0 means no bound.
	DefaultTimeout time.Duration
	// MaxDeadline caps every run's wall-clock time; 0 means no cap.
	MaxDeadline time.Duration
	// Load compiles a child skill (execute_skill, inline) from the source
	// the skill store returned for name. It returns the parse errors as
	// ast.Diagnostics; a nil info is computed with check.Check. nil
	// refuses every child skill. eval/host sets it to syntax.Parse plus
	// check.Check, as starlark's Thread.Load is set by its host.
	Load Loader
	// Admit, when set, decides whether the root skill may run at all (the
	// host's approval gate); mechanical says the run performs no side
	// effects. It is asked before inputs are bound or any op runs; an
	// error fails the run fatally, under the error's Kind() when it has
	// one. Child skills are admitted by Load.
	Admit func(ctx context.Context, f *ast.File, info *check.Info, mechanical bool) error
	// MaxValueBytes caps the size of one value (a string, or the estimated
	// size of a list or object); 0 means DefaultMaxValueBytes, a negative
	// value no cap.
	MaxValueBytes int64
	// MaxOps caps the statements a composed run (the root and all its
	// children) executes; 0 means DefaultMaxOps, negative no cap.
	MaxOps int64
	// MaxMemoryBytes caps the estimated bytes a composed run holds in
	// bindings and emissions; 0 means DefaultMaxMemoryBytes, negative no
	// cap.
	MaxMemoryBytes int64
	// Debug, when set, is stopped at every step of the run and of its
	// children (see Debugger); nil costs nothing.
	Debug Debugger
}

// Loader turns a stored skill's source into a checked file; see
// Runner.Load.
type Loader func(ctx context.Context, name string, src []byte) (*ast.File, *check.Info, error)

// Env holds the ambient values a run sees.
type Env struct {
	User           any    // ${USER}
	SessionContext any    // ${SESSION_CONTEXT}
	TriggerType    string // ${TRIGGER_TYPE}: cron, event, or "" for manual runs
	TriggerName    string // the cron expression or event name, for delivery provenance
	TriggerPayload any    // ${TRIGGER_PAYLOAD}
	// Caller is the authenticated caller whose request started the run
	// (the runtime host's identity header). It is kept across composition
	// and rides deliveries as origin.caller_agent_id; it is never the
	// skill's owner (that is Runner.Identity), and "" for cron, event and
	// CLI runs.
	Caller string
	Event  map[string]any // extra ${EVENT.*} fields (fired_at* are always set)
	// FiredAt is the fire time; zero means the run's start time.
	FiredAt time.Time
}

// Event is a live progress report.
type Event struct {
	Kind   string // target, op, emit, fallback, else, error, done
	Skill  string
	Target string
	Op     string
	Line   int
	Depth  int // 0 for the root skill, 1 for its children, ...
	Detail string
}

// Run runs the skill f (checked as info) with the given inputs. Failures of
// the skill are reported in the Result (Status "failed", Errors); the error
// return is reserved for misuse, such as a nil file.
func (r *Runner) Run(ctx context.Context, f *ast.File, info *check.Info, inputs map[string]any) (*Result, error) {
	if f == nil {
		return nil, fmt.Errorf("eval: nil file")
	}
	if info == nil {
		info = check.Check(f)
	}
	x := r.newRun(ctx, f, info, 0, r.Identity, r.Mechanical)
	defer x.cancel()
	x.execute(inputs)
	return x.finish(), nil
}

func (r *Runner) clock() time.Time {
	if r.Clock != nil {
		return r.Clock()
	}
	return time.Now()
}

func (r *Runner) maxDepth() int {
	if r.MaxDepth > 0 {
		return r.MaxDepth
	}
	return DefaultMaxDepth
}

func (r *Runner) registry() *contract.Registry {
	if r.Registry != nil {
		return r.Registry
	}
	return &contract.Registry{}
}
