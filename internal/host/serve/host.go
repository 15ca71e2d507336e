package serve

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/skillrt"
	"github.com/skillscript/skillc/internal/host/telemetry"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/workspace"
)

// Options configure a Host.
type Options struct {
	// Workspace is the loaded configuration and lint environment
	// (required); lint_skill and skill_write lint through it.
	Workspace *workspace.Env
	Settings  Settings
	// Runner is the base runner every run copies (host.NewRunner).
	Runner *eval.Runner
	// Policy is the approval posture runs are gated with (host.Policy).
	Policy approval.Policy
	// CloseRunner releases what Runner holds; may be nil.
	CloseRunner func() error
	// Traces records runs; nil disables recording.
	Traces *trace.Store
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
	// Clock is the time source; nil means time.Now.
	Clock func() time.Time
	// Version is reported by runtime_capabilities and the MCP handshake.
	Version string
	// Routes are extra HTTP routes by mux pattern (the approvals
	// dashboard at /dashboard/).
	Routes map[string]http.Handler
	// Skills, when set, serves Agent Skills (SKILL.md packages) through
	// the skills_* tools, and the skill gateway (skills_discover, ...,
	// HTTP under /gateway/) over the same registry.
	Skills *skillrt.Runtime
	// Gateway is the gateway configuration (nil: the defaults).
	Gateway *gateway.Config
	// Embedder, when set, turns on the gateway's semantic stage (the
	// embeddings entry of the gateway configuration, resolved by the
	// command); nil keeps discover lexical.
	Embedder gateway.Embedder
	// VectorCache, when set with Embedder, is the file the skill vectors
	// are persisted in (the skills subcommands' gateway-<key>.vec), so a
	// restarted host embeds only new and edited skills.
	VectorCache string
	// ArtifactRoot is where the gateway resolves artifact targets; empty
	// leaves them unavailable.
	ArtifactRoot string
	// Telemetry exports OpenTelemetry spans of runs, ops and connector
	// calls; nil exports none.
	Telemetry *telemetry.Tracing
}

// Host runs skills for the MCP tools, the trigger scheduler and /event.
// It is safe for concurrent use.
type Host struct {
	cfg     *config.Config
	ws      *workspace.Env
	set     Settings
	runner  *eval.Runner
	closeR  func() error
	traces  *trace.Store
	log     *slog.Logger
	now     func() time.Time
	version string
	started time.Time
	metrics *metrics
	secrets []string
	policy  approval.Policy
	skills  *skillrt.Runtime
	gw      *gateway.Gateway
	vecFile string // where the gateway persists skill vectors ("": not)
	routes  map[string]http.Handler
	tel     *telemetry.Tracing

	triggers Triggers // set by SetTriggers; nil when triggers are off

	eventBucket   *bucket                    // POST /event rate limit; nil: none
	triggerBucket *bucket                    // register_trigger rate limit; nil: none
	sessions      atomic.Pointer[sessionCap] // the HTTP handler's MCP sessions

	mu       sync.Mutex
	draining bool
	inflight map[string]context.CancelFunc
	wg       sync.WaitGroup
}

// New builds a host. The caller owns o.Traces and closes it after
// Host.Close.
func New(o Options) (*Host, error) {
	if o.Workspace == nil || o.Workspace.Config == nil || o.Runner == nil {
		return nil, fmt.Errorf("serve: host needs a workspace and a runner")
	}
	h := &Host{
		cfg: o.Workspace.Config, ws: o.Workspace, set: o.Settings, runner: o.Runner, closeR: o.CloseRunner, traces: o.Traces,
		log: o.Logger, now: o.Clock, version: o.Version, inflight: map[string]context.CancelFunc{},
		secrets: secretValues(os.Environ()), policy: o.Policy, skills: o.Skills, routes: o.Routes, tel: o.Telemetry,
	}
	if h.tel != nil && h.runner.Registry != nil {
		// connector calls become spans under the op that made them
		for name, e := range h.runner.Registry.Connectors {
			e.Connector = h.tel.Connector(name, e.Connector)
			h.runner.Registry.Connectors[name] = e
		}
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	h.started = h.now()
	h.guardOwnership()
	hs := h.set.HTTP
	h.eventBucket = newBucket("rate_limit_event", hs.EventRate, hs.EventBurst)
	h.triggerBucket = newBucket("rate_limit_register_trigger", hs.TriggerRegisterRate, hs.TriggerRegisterBurst)
	h.metrics = newMetrics(h)
	h.newGateway(o)
	return h, nil
}

// SecretValues returns the values provisioned for {{secret.NAME}} in
// the process environment: what every exported string is redacted
// against.
func SecretValues() []string { return secretValues(os.Environ()) }

// secretValues returns the values provisioned for {{secret.NAME}}, so
// recorded inputs can be redacted against them.
func secretValues(environ []string) []string {
	var out []string
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, config.SecretPrefix) && v != "" {
			out = append(out, v)
		}
	}
	return out
}

// SetTriggers attaches the trigger service the trigger tools and /event
// use.
func (h *Host) SetTriggers(t Triggers) { h.triggers = t }

// Skills returns the configured skill store, or nil.
func (h *Host) Skills() contract.SkillStore {
	if h.runner.Registry == nil {
		return nil
	}
	return h.runner.Registry.Skills
}

// ClientApproval reports whether any MCP client can approve skills: the
// host is unsecured (no SKILLSCRIPT_SECURED_MODE, no
// SKILLSCRIPT_FORCE_ALWAYS_DRAFT) and a skill store takes writes, so
// skill_write keeps a # Status: Approved line and skill_status sets
// Approved. An agent can then write an effectful skill Approved and run
// it: the reference runtime's semantics, reported by
// runtime_capabilities (policy.client_approval), the
// skillc_client_approval gauge and a warning at start.
func (h *Host) ClientApproval() bool {
	return h.Skills() != nil && !h.cfg.SecuredMode && !h.cfg.ForceAlwaysDraft
}

// ClientApprovalWarning is the line serve prints at start when
// ClientApproval holds.
const ClientApprovalWarning = "skillc serve: warning: unsecured mode: any MCP client can write and approve skills with effects and run them; set SKILLSCRIPT_SECURED_MODE=true so approval needs the operator's signature (docs/serve.md)"

// Registry returns the wired registry (never nil).
func (h *Host) Registry() *contract.Registry {
	if h.runner.Registry == nil {
		return &contract.Registry{}
	}
	return h.runner.Registry
}

// Traces returns the trace store, or nil when recording is off.
func (h *Host) Traces() *trace.Store { return h.traces }

// Logger returns the host's logger.
func (h *Host) Logger() *slog.Logger { return h.log }

// Close releases the runner's registry and the gateway's index.
func (h *Host) Close() error {
	if h.gw != nil {
		_ = h.gw.Close()
	}
	if h.closeR != nil {
		return h.closeR()
	}
	return nil
}
