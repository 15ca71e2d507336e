package serve

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/skillscript/skillc/internal/host/httpguard"
	"github.com/skillscript/skillc/internal/leaf/config"
)

// Environment variables read by the host beyond those of
// internal/leaf/config.
const (
	EnvIdentityHeader = "SKILLSCRIPT_MCP_CALLER_IDENTITY_HEADER"
	EnvPollInterval   = "SKILLSCRIPT_POLL_INTERVAL_SECONDS"
	EnvEventIngress   = "SKILLSCRIPT_EVENT_INGRESS_ENABLED"
	EnvEventToken     = "SKILLSCRIPT_EVENT_INGRESS_AUTH_TOKEN"
	EnvAuthToken      = "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN"
	EnvDatabaseURL    = "SKILLSCRIPT_DATABASE_URL"
	EnvArtifactRoot   = "SKILLSCRIPT_ARTIFACT_ROOT"
	EnvGatewayConfig  = "SKILLSCRIPT_GATEWAY_CONFIG"
	// EnvSkillsRunScript turns on the skills_run_script tool (off by
	// default): Agent Skill packages' scripts run as host processes.
	EnvSkillsRunScript = "SKILLSCRIPT_SKILLS_RUN_SCRIPT"
	// EnvSkillsMaxScanDirs bounds the scan of each Agent Skills root;
	// EnvSkillsCatalogBudget is the byte budget of <available_skills>.
	EnvSkillsMaxScanDirs   = "SKILLSCRIPT_SKILLS_MAX_SCAN_DIRS"
	EnvSkillsCatalogBudget = "SKILLSCRIPT_SKILLS_CATALOG_BUDGET"
	// EnvSkillsIndexCache is the directory the gateway's skill vectors
	// are persisted in (the skills subcommands' --index-cache; "off":
	// none).
	EnvSkillsIndexCache = "SKILLSCRIPT_SKILLS_INDEX_CACHE"
	// The trigger queue's knobs (docs/serve.md, "Trigger queue").
	EnvWorkers          = "SKILLSCRIPT_QUEUE_WORKERS"
	EnvFetchPoll        = "SKILLSCRIPT_QUEUE_FETCH_POLL_MS"
	EnvJobTimeout       = "SKILLSCRIPT_JOB_TIMEOUT_SECONDS"
	EnvMaxJobTimeout    = "SKILLSCRIPT_MAX_JOB_TIMEOUT_SECONDS"
	EnvRescueAfter      = "SKILLSCRIPT_QUEUE_RESCUE_AFTER_SECONDS"
	EnvHostTimeout      = "SKILLSCRIPT_QUEUE_HOST_TIMEOUT_SECONDS"
	EnvMaxQueueDepth    = "SKILLSCRIPT_QUEUE_MAX_DEPTH"
	EnvIdempotentSkills = "SKILLSCRIPT_IDEMPOTENT_SKILLS"
	// The listener's defences (docs/serve.md, "HTTP limits").
	EnvAllowedHosts         = "SKILLSCRIPT_ALLOWED_HOSTS"
	EnvAllowedOrigins       = "SKILLSCRIPT_ALLOWED_ORIGINS"
	EnvReadTimeout          = "SKILLSCRIPT_HTTP_READ_TIMEOUT_SECONDS"
	EnvIdleTimeout          = "SKILLSCRIPT_HTTP_IDLE_TIMEOUT_SECONDS"
	EnvMaxSessions          = "SKILLSCRIPT_MCP_MAX_SESSIONS"
	EnvSessionIdle          = "SKILLSCRIPT_MCP_SESSION_IDLE_SECONDS"
	EnvEventRate            = "SKILLSCRIPT_EVENT_RATE"
	EnvEventBurst           = "SKILLSCRIPT_EVENT_BURST"
	EnvTriggerRegisterRate  = "SKILLSCRIPT_TRIGGER_REGISTER_RATE"
	EnvTriggerRegisterBurst = "SKILLSCRIPT_TRIGGER_REGISTER_BURST"
)

// Defaults of the host settings.
const (
	DefaultPollInterval = 30 * time.Second
	DefaultGrace        = 30 * time.Second
	DefaultMaxBody      = 4 << 20          // bytes of one HTTP request body
	DefaultMaxSessions  = 256              // concurrent MCP sessions
	DefaultSessionIdle  = 10 * time.Minute // an MCP session without a request is closed
	// DefaultEventRate and DefaultEventBurst are the token bucket of
	// POST /event (accepted requests per second, and the burst).
	DefaultEventRate  = 10.0
	DefaultEventBurst = 20
	// DefaultTriggerRegisterRate and DefaultTriggerRegisterBurst are the
	// token bucket of register_trigger.
	DefaultTriggerRegisterRate  = 1.0
	DefaultTriggerRegisterBurst = 10
	DefaultWorkers              = 4
	DefaultFetchPoll            = 50 * time.Millisecond
	// DefaultMaxQueueDepth is the number of queued fires past which /event
	// answers 429.
	DefaultMaxQueueDepth = 10000
)

// Settings are the host's resolved settings: configuration plus flags.
type Settings struct {
	Host string
	Port int
	// IdentityHeader names the inbound header carrying the caller's agent
	// id; empty means callers are anonymous.
	IdentityHeader string
	// OperatorIdentity, with an identity header, is the caller identity
	// that acts as the operator over MCP: it may overwrite and change the
	// status of skills other callers own (see OwnershipError).
	OperatorIdentity string
	// EventIngress mounts POST /event; EventToken, when set, is the bearer
	// token it requires.
	EventIngress bool
	EventToken   string
	// AuthToken, when set, is the bearer token /mcp requires.
	AuthToken string
	// PollInterval is the scheduler tick.
	PollInterval time.Duration
	// DatabaseURL selects the queue database: empty or a file path for the
	// embedded SQLite under $SKILLSCRIPT_HOME, postgres://... for Postgres.
	DatabaseURL string
	// Grace is how long in-flight runs may finish after SIGTERM.
	Grace time.Duration
	// MaxBody caps the size of an HTTP request body.
	MaxBody int64
	// Trace turns run recording on (the default) or off.
	Trace bool
	// SupervisorSkill, when set, is the approved handler failed
	// autonomous fires are routed to; SupervisorAgent is passed to it as
	// ${SUPERVISOR_AGENT}.
	SupervisorSkill string
	SupervisorAgent string
	// ArtifactRoot is the directory the skill gateway resolves artifact
	// targets in; GatewayConfig a JSON file of ranking weights and limits
	// over the defaults.
	ArtifactRoot  string
	GatewayConfig string
	// SkillsRunScript registers skills_run_script, which runs the scripts
	// of loaded Agent Skill packages (off by default).
	SkillsRunScript bool
	// SkillsMaxScanDirs and SkillsCatalogBudget override the gateway
	// configuration's max_scan_dirs and catalog_budget_bytes (zero: use
	// the configuration).
	SkillsMaxScanDirs, SkillsCatalogBudget int
	// SkillsIndexCache overrides the gateway configuration's index_cache:
	// the directory the semantic stage's skill vectors are persisted in
	// ("" : use the configuration, "off": keep them in memory only).
	SkillsIndexCache string
	// Workers is how many fires this host runs at once; FetchPoll how
	// often idle workers look for queued fires.
	Workers   int
	FetchPoll time.Duration
	// JobTimeout is the default job timeout of a fire whose skill has no
	// # Deadline: or # Timeout:, MaxJobTimeout the ceiling of every fire's
	// job timeout (zero: the trigger package's defaults).
	JobTimeout, MaxJobTimeout time.Duration
	// RescueAfter is River's rescue window (zero: derived from
	// MaxJobTimeout); HostTimeout how long a host may miss its heartbeat
	// before another host rescues its jobs.
	RescueAfter, HostTimeout time.Duration
	// MaxQueueDepth is the number of queued, not yet finished fires past
	// which /event answers 429 with Retry-After; zero means no limit.
	MaxQueueDepth int
	// IdempotentSkills are skills the operator declares safe to run
	// again when a fire was interrupted mid-run (a killed host); other
	// effectful skills are recorded aborted instead (docs/serve.md).
	IdempotentSkills []string
	// OTelEndpoint is the OTLP/HTTP base URL of --otel-endpoint; empty
	// leaves the choice to OTEL_EXPORTER_OTLP_ENDPOINT (off when unset).
	OTelEndpoint string
	// HTTP holds the listener's defences.
	HTTP HTTPSettings
}

// HTTPSettings are the listener's limits: the names and origins requests
// may carry, timeouts, the MCP session cap and the rate limits.
type HTTPSettings struct {
	// AllowedHosts are public names clients may send as Host besides
	// loopback names and addresses (DNS-rebinding guard).
	AllowedHosts []string
	// AllowedOrigins are the cross-origin callers (scheme://host[:port])
	// allowed, answered with CORS headers; none by default.
	AllowedOrigins []string
	// ReadTimeout bounds a request's headers and body; IdleTimeout a
	// kept-alive connection (zero: the httpguard defaults).
	ReadTimeout time.Duration
	IdleTimeout time.Duration
	// MaxSessions caps concurrent MCP sessions (0: no cap); SessionIdle
	// closes a session without requests for that long.
	MaxSessions int
	SessionIdle time.Duration
	// EventRate and EventBurst are the token bucket of POST /event;
	// TriggerRegisterRate and TriggerRegisterBurst that of
	// register_trigger. A rate of 0 means no limit.
	EventRate            float64
	EventBurst           int
	TriggerRegisterRate  float64
	TriggerRegisterBurst int
}

// SettingsFrom resolves the host settings from cfg (its environment and
// .env files) with the defaults of configuration.md. Flags override the
// result afterwards.
func SettingsFrom(cfg *config.Config) (Settings, error) {
	s := Settings{
		Host: cfg.Host, Port: cfg.Port, PollInterval: DefaultPollInterval,
		Grace: DefaultGrace, MaxBody: DefaultMaxBody, Trace: true,
		Workers: DefaultWorkers, FetchPoll: DefaultFetchPoll, MaxQueueDepth: DefaultMaxQueueDepth,
		HTTP: HTTPSettings{
			ReadTimeout: httpguard.DefaultReadTimeout, IdleTimeout: httpguard.DefaultIdleTimeout,
			MaxSessions: DefaultMaxSessions, SessionIdle: DefaultSessionIdle,
			EventRate: DefaultEventRate, EventBurst: DefaultEventBurst,
			TriggerRegisterRate: DefaultTriggerRegisterRate, TriggerRegisterBurst: DefaultTriggerRegisterBurst,
		},
	}
	get := func(k string) string { v, _ := cfg.Getenv(k); return strings.TrimSpace(v) }
	s.IdentityHeader = strings.TrimSpace(cfg.IdentityHeader)
	if cfg.PollInterval > 0 {
		s.PollInterval = cfg.PollInterval
	}
	s.EventToken, s.AuthToken, s.DatabaseURL = get(EnvEventToken), get(EnvAuthToken), get(EnvDatabaseURL)
	s.SupervisorSkill, s.SupervisorAgent = get(EnvSupervisorSkill), get(EnvSupervisorAgent)
	s.OperatorIdentity = get(EnvOperatorIdentity)
	s.ArtifactRoot, s.GatewayConfig = get(EnvArtifactRoot), get(EnvGatewayConfig)
	s.SkillsIndexCache = get(EnvSkillsIndexCache)
	if v := get(EnvEventIngress); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return s, fmt.Errorf("%s=%q: want true or false", EnvEventIngress, v)
		}
		s.EventIngress = b
	}
	if v := get(EnvSkillsRunScript); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return s, fmt.Errorf("%s=%q: want true or false", EnvSkillsRunScript, v)
		}
		s.SkillsRunScript = b
	}
	for _, k := range []struct {
		env string
		dst *int
	}{{EnvSkillsMaxScanDirs, &s.SkillsMaxScanDirs}, {EnvSkillsCatalogBudget, &s.SkillsCatalogBudget}} {
		if v := get(k.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return s, fmt.Errorf("%s=%q: want a positive integer", k.env, v)
			}
			*k.dst = n
		}
	}
	if v := get(EnvPollInterval); v != "" && cfg.PollInterval <= 0 {
		return s, fmt.Errorf("%s=%q: want a positive number of seconds", EnvPollInterval, v)
	}
	if err := s.queueFromEnv(get); err != nil {
		return s, err
	}
	return s, s.HTTP.fromEnv(get)
}

// queueFromEnv reads the trigger queue's knobs from the environment.
func (s *Settings) queueFromEnv(get func(string) string) error {
	ints := []struct {
		env string
		dst *int
		min int
	}{{EnvWorkers, &s.Workers, 1}, {EnvMaxQueueDepth, &s.MaxQueueDepth, 0}}
	for _, i := range ints {
		if v := get(i.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < i.min {
				return fmt.Errorf("%s=%q: want an integer of at least %d", i.env, v, i.min)
			}
			*i.dst = n
		}
	}
	durs := []struct {
		env  string
		dst  *time.Duration
		unit time.Duration
	}{
		{EnvFetchPoll, &s.FetchPoll, time.Millisecond}, {EnvJobTimeout, &s.JobTimeout, time.Second},
		{EnvMaxJobTimeout, &s.MaxJobTimeout, time.Second}, {EnvRescueAfter, &s.RescueAfter, time.Second},
		{EnvHostTimeout, &s.HostTimeout, time.Second},
	}
	for _, d := range durs {
		if v := get(d.env); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f <= 0 {
				return fmt.Errorf("%s=%q: want a positive number", d.env, v)
			}
			*d.dst = time.Duration(f * float64(d.unit))
		}
	}
	if v := get(EnvIdempotentSkills); v != "" {
		s.IdempotentSkills = SplitList(v)
	}
	return nil
}

// fromEnv reads the listener's limits from the environment.
func (hs *HTTPSettings) fromEnv(get func(string) string) error {
	hs.AllowedHosts, hs.AllowedOrigins = SplitList(get(EnvAllowedHosts)), SplitList(get(EnvAllowedOrigins))
	for _, d := range []struct {
		env string
		to  *time.Duration
	}{{EnvReadTimeout, &hs.ReadTimeout}, {EnvIdleTimeout, &hs.IdleTimeout}, {EnvSessionIdle, &hs.SessionIdle}} {
		if v := get(d.env); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f <= 0 {
				return fmt.Errorf("%s=%q: want a positive number of seconds", d.env, v)
			}
			*d.to = time.Duration(f * float64(time.Second))
		}
	}
	for _, n := range []struct {
		env string
		to  *int
	}{{EnvMaxSessions, &hs.MaxSessions}, {EnvEventBurst, &hs.EventBurst}, {EnvTriggerRegisterBurst, &hs.TriggerRegisterBurst}} {
		if v := get(n.env); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil || i < 0 {
				return fmt.Errorf("%s=%q: want a whole number, 0 or more", n.env, v)
			}
			*n.to = i
		}
	}
	for _, r := range []struct {
		env string
		to  *float64
	}{{EnvEventRate, &hs.EventRate}, {EnvTriggerRegisterRate, &hs.TriggerRegisterRate}} {
		if v := get(r.env); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 {
				return fmt.Errorf("%s=%q: want a number of requests per second, 0 (no limit) or more", r.env, v)
			}
			*r.to = f
		}
	}
	return nil
}

// SplitList splits a comma-separated list, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Check refuses settings that would expose the host: a listener that may
// reach beyond this machine (httpguard.Loopback) without a bearer token
// for /mcp, or with /event enabled but no event token. It also checks the
// port.
func (s Settings) Check() error {
	return httpguard.CheckBind(context.Background(), nil, s.Host, s.Port,
		httpguard.Token{Env: EnvAuthToken, Guards: "/mcp", Set: s.AuthToken != ""},
		httpguard.Token{Env: EnvEventToken, Guards: "/event", Set: !s.EventIngress || s.EventToken != ""})
}

// Addr returns host:port.
func (s Settings) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }
