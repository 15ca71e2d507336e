package hostcli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/serve"
	"github.com/skillscript/skillc/internal/host/service"
	"github.com/skillscript/skillc/internal/host/skillrt"
	"github.com/skillscript/skillc/internal/host/telemetry"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/host/trigger"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// serveCommand is "skillc serve": the runtime host.
func serveCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: skillcli.HostUsage("serve"),
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "stdio", Usage: "speak MCP on stdin/stdout instead of listening on HTTP"},
			&cli.StringFlag{Name: "host", Usage: "bind address (env SKILLSCRIPT_HOST)", DefaultText: "127.0.0.1"},
			&cli.IntFlag{Name: "port", Usage: "HTTP port (env SKILLSCRIPT_PORT; 0 picks a free port)", Value: -1, DefaultText: "7878"},
			&cli.StringFlag{Name: "identity-header", Usage: "inbound caller-identity header, e.g. X-Agent-Id (env " + serve.EnvIdentityHeader + ")"},
			&cli.StringFlag{Name: "operator-identity", Usage: "caller identity (identity-header value) that may overwrite and change the status of skills other callers own (env " + serve.EnvOperatorIdentity + ")"},
			&cli.BoolFlag{Name: "event-ingress", Usage: "mount POST /event (env " + serve.EnvEventIngress + ")"},
			&cli.BoolFlag{Name: "enable-scripts", Usage: "register skills_run_script: loaded Agent Skill packages may run their scripts as host processes (env " + serve.EnvSkillsRunScript + "; off by default)"},
			&cli.DurationFlag{Name: "poll-interval", Usage: "scheduler tick (env " + serve.EnvPollInterval + ")", DefaultText: "30s"},
			&cli.DurationFlag{Name: "max-deadline", Usage: "ceiling on every run's wall-clock time (env SKILLSCRIPT_MAX_DEADLINE_SECONDS)", DefaultText: "none"},
			&cli.IntFlag{Name: "max-recursion-depth", Usage: "execute_skill nesting limit (env SKILLSCRIPT_MAX_RECURSION_DEPTH)", DefaultText: "10"},
			&cli.StringFlag{Name: "database", Usage: "trigger queue: a SQLite file or postgres://... (env " + serve.EnvDatabaseURL + ")", DefaultText: "$SKILLSCRIPT_HOME/queue.db"},
			&cli.DurationFlag{Name: "grace", Usage: "how long in-flight runs may finish after SIGTERM", Value: serve.DefaultGrace},
			&cli.StringFlag{Name: "trace", Usage: "record runs in $SKILLSCRIPT_HOME/traces (on|off)", Value: "on"},
			&cli.StringFlag{Name: "log-level", Usage: "debug, info, warn or error", Value: "info"},
			&cli.StringFlag{Name: "artifacts", Usage: "directory the skill gateway resolves artifact targets in (env " + serve.EnvArtifactRoot + ")"},
			&cli.StringFlag{Name: "gateway-config", Usage: "JSON file of skill gateway ranking weights and limits (env " + serve.EnvGatewayConfig + ")"},
			&cli.IntFlag{Name: "max-scan-dirs", Usage: "directories scanned per Agent Skills root (env " + serve.EnvSkillsMaxScanDirs + "; config max_scan_dirs)", DefaultText: "2000"},
			&cli.IntFlag{Name: "catalog-budget", Usage: "bytes of the <available_skills> prompt block (env " + serve.EnvSkillsCatalogBudget + "; config catalog_budget_bytes)", DefaultText: "16384"},
			&cli.StringFlag{Name: "index-cache", Usage: "directory the skill gateway's embedding vectors are persisted in, shared with the skills subcommands (env " + serve.EnvSkillsIndexCache + "; config index_cache; \"off\" keeps them in memory)", DefaultText: "the user cache directory's skillc folder"},
			&cli.IntFlag{Name: "workers", Usage: "fires this host runs at once (env " + serve.EnvWorkers + ")", DefaultText: "4"},
			&cli.DurationFlag{Name: "fetch-poll-interval", Usage: "how often idle workers look for queued fires (env " + serve.EnvFetchPoll + ", in ms)", DefaultText: "50ms"},
			&cli.DurationFlag{Name: "job-timeout", Usage: "job timeout of a fire whose skill has no # Deadline: or # Timeout: (env " + serve.EnvJobTimeout + ")", DefaultText: "5m"},
			&cli.DurationFlag{Name: "max-job-timeout", Usage: "ceiling of every fire's job timeout (env " + serve.EnvMaxJobTimeout + ")", DefaultText: "1h"},
			&cli.DurationFlag{Name: "rescue-after", Usage: "River's rescue window for stuck jobs, at least --max-job-timeout + 10s (env " + serve.EnvRescueAfter + ")", DefaultText: "max job timeout + 30s"},
			&cli.DurationFlag{Name: "host-timeout", Usage: "missed-heartbeat time after which another host rescues a host's jobs (env " + serve.EnvHostTimeout + ")", DefaultText: "15s"},
			&cli.IntFlag{Name: "max-queue-depth", Usage: "unfinished fires past which POST /event answers 429 (env " + serve.EnvMaxQueueDepth + "; 0: no limit)", DefaultText: "10000"},
			&cli.StringFlag{Name: "otel-endpoint", Usage: "export OpenTelemetry spans of runs, ops and connector calls over OTLP/HTTP to this base URL (env OTEL_EXPORTER_OTLP_ENDPOINT; off by default)"},
			&cli.StringFlag{Name: "skill-store", Usage: "postgres://... URL of a skill store shared by a cluster of hosts, instead of $SKILLSCRIPT_HOME/skills (env " + skillstore.EnvURL + ")"},
			&cli.StringFlag{Name: "idempotent-skills", Usage: "comma-separated skills safe to re-run after a host died mid-run (env " + serve.EnvIdempotentSkills + ")"},
		}, append(httpFlags(), skillcli.ConfigFlags()...)...),
		Action: func(c *cli.Context) error { return runServe(c, s) },
	}
}

func runServe(c *cli.Context, s *streams) error {
	if u := c.String("skill-store"); u != "" {
		if c.IsSet("skills") {
			return cli.Exit("--skill-store and --skills both name the skill store: pass one", skillcli.ExitUsage)
		}
		if !skillstore.IsPostgresURL(u) {
			return cli.Exit("--skill-store: want a postgres:// URL", skillcli.ExitUsage)
		}
		_ = os.Setenv(skillstore.EnvURL, u) // the flag wins over the environment
	}
	ws, err := loadServeConfig(c, s)
	if err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	cfg := ws.Config
	set, err := serveSettings(c, cfg)
	if err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	// every line names the host, so a cluster's merged logs tell hosts apart
	log := newLogger(s, c.String("log-level")).With("host", hostLabel(cfg))
	ctx, stop := signal.NotifyContext(c.Context, syscall.SIGTERM, os.Interrupt)
	defer stop()
	h, closeAll, err := buildHost(ctx, s, ws, set, log)
	if err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	defer closeAll()
	if h.ClientApproval() {
		fmt.Fprintln(s.err, serve.ClientApprovalWarning)
	}
	srv, err := h.NewMCPServer()
	if err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	if c.Bool("stdio") {
		return serveStdio(ctx, h, srv)
	}
	ln, err := net.Listen("tcp", set.Addr())
	if err != nil {
		return cli.Exit(fmt.Sprintf("listen %s: %v", set.Addr(), err), skillcli.ExitUsage)
	}
	fmt.Fprintf(s.err, "skillc serve: listening on http://%s/mcp\n", ln.Addr())
	if err := h.Serve(ctx, ln, srv); err != nil {
		return cli.Exit(err.Error(), skillcli.ExitFindings)
	}
	return nil
}

// serveStdio speaks MCP on stdin/stdout until the client disconnects or
// a signal arrives.
func serveStdio(ctx context.Context, h *serve.Host, srv *mcp.Server) error {
	err := srv.Run(ctx, &mcp.StdioTransport{})
	h.Shutdown(nil)
	if err != nil && ctx.Err() == nil && !isEOF(err) {
		return cli.Exit(err.Error(), skillcli.ExitFindings)
	}
	return nil
}

// isEOF reports the client closing stdin, the normal end of a stdio
// session.
func isEOF(err error) bool {
	return errors.Is(err, io.EOF) || strings.HasSuffix(err.Error(), ": EOF")
}

// loadServeConfig reads the configuration rooted at $SKILLSCRIPT_HOME
// (plus --config/--connectors/--skills) and reports its problems.
func loadServeConfig(c *cli.Context, s *streams) (*workspace.Env, error) {
	home, _ := os.UserHomeDir()
	ws := workspace.Load("", workspace.LoadOptions{CacheUnits: true,
		ConfigPath: c.String("config"), ConnectorsPath: c.String("connectors"), SkillsDir: c.String("skills"),
		Env: os.LookupEnv, Home: home,
	})
	for _, fd := range append(ws.ConfigDiagnostics, ws.ConnectorDiagnostics) {
		for _, d := range fd.Diags {
			fmt.Fprintf(s.err, "skillc: config: %s: %s\n", fd.File, d.Message)
		}
	}
	cfg := ws.Config
	if cfg.Home == "" {
		return nil, fmt.Errorf("cannot locate SKILLSCRIPT_HOME: set it or HOME")
	}
	if c.IsSet("max-deadline") {
		cfg.MaxDeadline = c.Duration("max-deadline")
	}
	if c.IsSet("max-recursion-depth") {
		cfg.MaxRecursionDepth = c.Int("max-recursion-depth")
	}
	return ws, nil
}

// serveSettings resolves the host settings: flags over environment over
// configuration over defaults.
func serveSettings(c *cli.Context, cfg *config.Config) (serve.Settings, error) {
	set, err := serve.SettingsFrom(cfg)
	if err != nil {
		return set, err
	}
	if c.IsSet("host") {
		set.Host = c.String("host")
	}
	if c.Int("port") >= 0 {
		set.Port = c.Int("port")
	}
	if c.IsSet("identity-header") {
		set.IdentityHeader = c.String("identity-header")
	}
	if c.IsSet("operator-identity") {
		set.OperatorIdentity = c.String("operator-identity")
	}
	if c.IsSet("event-ingress") {
		set.EventIngress = c.Bool("event-ingress")
	}
	if c.IsSet("enable-scripts") {
		set.SkillsRunScript = c.Bool("enable-scripts")
	}
	if c.IsSet("poll-interval") {
		set.PollInterval = c.Duration("poll-interval")
	}
	// the queue and trace database: --database, else the environment or
	// SKILLSCRIPT_HOME's .env (what SettingsFrom read), decided where
	// every host setting is
	set.DatabaseURL, _ = ihost.Resolve(ihost.Layers{Flag: c.String("database"), FlagSet: c.IsSet("database"),
		Env: set.DatabaseURL, EnvSet: true})
	set.Grace = c.Duration("grace")
	if c.IsSet("artifacts") {
		set.ArtifactRoot = c.String("artifacts")
	}
	if c.IsSet("gateway-config") {
		set.GatewayConfig = c.String("gateway-config")
	}
	if c.IsSet("index-cache") {
		set.SkillsIndexCache = c.String("index-cache")
	}
	for _, f := range []struct {
		flag string
		dst  *int
	}{{"max-scan-dirs", &set.SkillsMaxScanDirs}, {"catalog-budget", &set.SkillsCatalogBudget}} {
		if c.IsSet(f.flag) {
			if *f.dst = c.Int(f.flag); *f.dst <= 0 {
				return set, fmt.Errorf("--%s %d: want a positive number", f.flag, *f.dst)
			}
		}
	}
	if err := queueFlags(c, &set); err != nil {
		return set, err
	}
	if err := applyHTTPFlags(c, &set.HTTP); err != nil {
		return set, err
	}
	switch c.String("trace") {
	case "on":
		set.Trace = true
	case "off":
		set.Trace = false
	default:
		return set, fmt.Errorf("--trace %q: want on or off", c.String("trace"))
	}
	if set.OperatorIdentity != "" && set.IdentityHeader == "" {
		return set, fmt.Errorf("an operator identity (--operator-identity, %s) needs an identity header to be read from: set --identity-header or %s", serve.EnvOperatorIdentity, serve.EnvIdentityHeader)
	}
	if err := set.CheckSupervisor(); err != nil {
		return set, err
	}
	if c.Bool("stdio") {
		return set, nil // no listener: the bind check does not apply
	}
	return set, set.Check()
}

// queueFlags applies the trigger queue's flags over the environment.
func queueFlags(c *cli.Context, set *serve.Settings) error {
	if c.IsSet("workers") {
		if set.Workers = c.Int("workers"); set.Workers < 1 {
			return fmt.Errorf("--workers %d: want at least 1", set.Workers)
		}
	}
	if c.IsSet("max-queue-depth") {
		if set.MaxQueueDepth = c.Int("max-queue-depth"); set.MaxQueueDepth < 0 {
			return fmt.Errorf("--max-queue-depth %d: want 0 (no limit) or more", set.MaxQueueDepth)
		}
	}
	for _, d := range []struct {
		flag string
		dst  *time.Duration
	}{{"fetch-poll-interval", &set.FetchPoll}, {"job-timeout", &set.JobTimeout}, {"max-job-timeout", &set.MaxJobTimeout},
		{"rescue-after", &set.RescueAfter}, {"host-timeout", &set.HostTimeout}} {
		if c.IsSet(d.flag) {
			if *d.dst = c.Duration(d.flag); *d.dst <= 0 {
				return fmt.Errorf("--%s %s: want a positive duration", d.flag, *d.dst)
			}
		}
	}
	set.OTelEndpoint = c.String("otel-endpoint")
	if c.IsSet("idempotent-skills") {
		set.IdempotentSkills = serve.SplitList(c.String("idempotent-skills"))
	}
	return nil
}

func newLogger(s *streams, level string) *slog.Logger {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		lv = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(s.err, &slog.HandlerOptions{Level: lv}))
}

// buildHost hands serve's resolved settings to one assembly (service.Open)
// and takes the runner, the trace store, the Agent Skills runtime, the
// dashboard and the trigger service from it; the returned func closes the
// MCP host, the assembly and the span exporter.
func buildHost(ctx context.Context, s *streams, ws *workspace.Env, set serve.Settings, log *slog.Logger) (*serve.Host, func(), error) {
	cfg := ws.Config
	policy, generated := host.Policy(cfg)
	if generated {
		keys := host.KeyPaths()
		log.Warn("secured mode: created the approval key pair", "private", keys.Private, "public", keys.Public)
	}
	gwc, err := gateway.LoadConfig(set.GatewayConfig)
	if err != nil {
		return nil, nil, err
	}
	// the semantic stage, as the skills subcommands build it
	var emb gateway.Embedder
	if e := gwc.Embeddings; e != nil {
		he, err := skillcli.Embedder(e, ws.Connectors)
		if err != nil {
			return nil, nil, err
		}
		emb = he
		log.Info("skill gateway: semantic stage on", "protocol", he.Protocol, "model", he.Model, "base_url", redactedURL(he.BaseURL))
	}
	// new and edited skills reach skills_load and the gateway without a restart
	if set.SkillsMaxScanDirs > 0 {
		gwc.MaxScanDirs = set.SkillsMaxScanDirs
	}
	if set.SkillsCatalogBudget > 0 {
		gwc.CatalogBudget = set.SkillsCatalogBudget
	}
	regOpts := agentSkillsRegistry(cfg.SkillsDir, gwc)
	vecFile := serveVectorCache(set, gwc, regOpts, emb != nil, log)
	asm := service.Open(ihost.Config{TraceDir: cfg.TraceDir, DatabaseURL: set.DatabaseURL, HostName: hostLabel(cfg),
		Registry: regOpts, Skills: agentSkillsOptions(cfg.Home, set.SkillsRunScript, gwc)})
	fail := func(err error) (*serve.Host, func(), error) {
		_ = asm.Close()
		return nil, nil, err
	}
	r, err := asm.Runner(ctx, host.Options{
		Config: cfg, Approval: &policy, SkillsDir: cfg.SkillsDir, Log: s.err, BaseEnv: os.Environ(), User: os.Getenv("USER"),
	})
	if err != nil {
		return fail(err)
	}
	skills := agentSkills(ctx, asm, set.SkillsRunScript, log)
	tel, err := telemetry.Open(ctx, telemetry.Options{Endpoint: set.OTelEndpoint, Getenv: os.Getenv, Host: hostLabel(cfg), Version: s.version, Secrets: serve.SecretValues()})
	if err != nil {
		return fail(err)
	}
	if tel != nil {
		log.Info("exporting OpenTelemetry spans", "endpoint", tel.Endpoint)
	}
	var traces *trace.Store
	if set.Trace {
		if traces, err = openTraces(ctx, asm, log); err != nil {
			return fail(err)
		}
	}
	// the assembly closes the runner (CloseRunner stays nil)
	h, err := serve.New(serve.Options{Workspace: ws, Settings: set, Runner: r, Policy: policy, Traces: traces, Logger: log, Version: s.version,
		Routes: dashboardRoute(asm, r, policy, ws, traces, set.AuthToken, s), Skills: skills,
		Gateway: &gwc, Embedder: emb, VectorCache: vecFile, ArtifactRoot: set.ArtifactRoot, Telemetry: tel})
	if err != nil {
		return fail(err)
	}
	if err := startTriggers(ctx, asm, h, cfg, set, log); err != nil {
		_ = h.Close()
		return fail(err)
	}
	return h, func() {
		_ = h.Close()
		_ = asm.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = tel.Shutdown(sctx) // flush the last spans
		cancel()
	}, nil
}

// agentSkills is the Agent Skills runtime behind the skills_* tools: the
// working directory's .agents/skills (origin project), the user's
// ~/.agents/skills and the skill store directory (SKILL.md packages next
// to the skillscripts), indexed at start and re-indexed when files under
// them change (fsnotify) until ctx ends. scripts turns on
// skills_run_script (the operator's --enable-scripts); packages from the
// project root need the operator's approval in
// $SKILLSCRIPT_HOME/script-approvals.json (skillc skills approve-scripts).
// asm builds the registry and the runtime (see agentSkillsRegistry and
// agentSkillsOptions); a scan cut short by the limit is logged as a
// warning.
func agentSkills(ctx context.Context, asm *service.Host, scripts bool, log *slog.Logger) *skillrt.Runtime {
	reg := asm.Registry()
	if w := reg.TruncationWarning(); w != "" {
		log.Warn("agent skills: " + w)
	}
	go func() {
		err := reg.Watch(ctx, 0, func() {
			log.Info("agent skills re-indexed", "skills", len(reg.Names()), "truncated", len(reg.Truncated()) > 0)
		})
		if err != nil && ctx.Err() == nil {
			log.Warn("agent skills: not watching the skill roots; restart the host to see changes", "err", err)
		}
	}()
	if scripts {
		log.Warn("agent skills: skills_run_script is on; package scripts run as host processes without a sandbox")
	}
	return asm.Skills()
}

// serveVectorCache is the file the gateway's skill vectors persist in
// when the semantic stage is on: the index cache directory of
// --index-cache, SKILLSCRIPT_SKILLS_INDEX_CACHE, the gateway
// configuration's index_cache or the user cache directory, in that
// order ("off": none), named like the skills subcommands name it for
// the same roots, so a restarted host (and skills discover in the same
// project) embeds only new and edited skills.
func serveVectorCache(set serve.Settings, gwc gateway.Config, reg registry.Options, semantic bool, log *slog.Logger) string {
	if !semantic {
		return ""
	}
	dir := gwc.IndexCache
	if set.SkillsIndexCache != "" {
		dir = set.SkillsIndexCache
	}
	_, gw := skillcli.CacheFiles(dir, reg.Roots, fmt.Sprintf("%+v", reg.Validation))
	if gw == "" {
		return ""
	}
	vec := strings.TrimSuffix(gw, ".idx") + ".vec"
	log.Info("skill gateway: vectors persisted", "file", vec)
	return vec
}

// agentSkillsRegistry are the registry's roots (the standard ones of the
// working directory and the user's home, then the skillscript store
// storeDir, origin "store") and scan limit.
func agentSkillsRegistry(storeDir string, gwc gateway.Config) registry.Options {
	userHome, _ := os.UserHomeDir()
	project, _ := os.Getwd()
	roots := registry.DefaultRoots(project, userHome)
	if st, err := os.Stat(storeDir); err == nil && st.IsDir() {
		roots = append(roots, registry.Root{Dir: storeDir, Origin: "store"})
	}
	return registry.Options{Roots: roots, MaxDirs: gwc.MaxScanDirs}
}

// agentSkillsOptions are the runtime's: the catalog budget and the
// package scripts (approvals in home/script-approvals.json).
func agentSkillsOptions(home string, scripts bool, gwc gateway.Config) skillrt.Options {
	project, _ := os.Getwd()
	so := skillrt.ScriptOptions{Enabled: scripts, Project: project}
	if home != "" {
		so.Approvals = skillrt.NewScriptApprovals(filepath.Join(home, skillrt.ScriptApprovalsFile))
	}
	return skillrt.Options{CatalogBudget: gwc.CatalogBudget, Scripts: so}
}

// startTriggers takes the trigger service from asm (the River queue of
// the assembly's database: SQLite under $SKILLSCRIPT_HOME or Postgres),
// wires it to h, syncs declared triggers and starts the workers and the
// cron ticker. Host.Shutdown stops them (and asm.Close, when Shutdown did
// not run).
func startTriggers(ctx context.Context, asm *service.Host, h *serve.Host, cfg *config.Config, set serve.Settings, log *slog.Logger) error {
	svc, err := asm.Triggers(ctx, trigger.Options{
		Queue: trigger.QueueOptions{Home: cfg.Home, Workers: set.Workers, FetchPollInterval: set.FetchPoll, Logger: log,
			Timeouts:    trigger.JobTimeouts{Default: set.JobTimeout, Max: set.MaxJobTimeout, RunCeiling: cfg.MaxDeadline},
			RescueAfter: set.RescueAfter, HostTimeout: set.HostTimeout},
		Skills: h.Skills(), Run: h.FireTrigger, Logger: log, PollInterval: set.PollInterval,
		AfterTick: func(ctx context.Context) { h.Sweep(ctx) },
	})
	if err != nil {
		return err
	}
	h.SetTriggers(svc)
	if err := svc.Start(ctx); err != nil {
		return err
	}
	log.Info("triggers running", "queue", svc.Durability(), "poll_interval", set.PollInterval.String(), "workers", set.Workers)
	return nil
}

// openTraces opens the trace store of asm (the shared Postgres database
// when its database URL is a postgres:// URL, else traces.db under the
// trace directory) and closes the rows of runs this host left running when it
// was killed.
func openTraces(ctx context.Context, asm *service.Host, log *slog.Logger) (*trace.Store, error) {
	st, err := asm.Traces(ctx, true)
	if err != nil {
		return nil, err
	}
	log.Info("trace store", "backend", st.Backend(), "at", st.Path())
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if n, err := st.Recover(rctx, "the host stopped before the run finished"); err != nil {
		log.Warn("trace recovery failed", "err", err)
	} else if n > 0 {
		log.Warn("recorded interrupted runs as aborted", "count", n)
	}
	return st, nil
}

// hostLabel names this host in the trace rows it writes: the machine's
// name and $SKILLSCRIPT_HOME, which together survive a restart (so a
// restarted host recovers its own interrupted runs on a shared store) and
// tell apart two hosts on one machine.
func hostLabel(cfg *config.Config) string {
	name, err := os.Hostname()
	if err != nil || name == "" {
		name = "localhost"
	}
	return name + ":" + cfg.Home
}

// httpFlags are the listener's limits, shared by serve and dashboard
// (docs/serve.md, "HTTP limits").
func httpFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "allowed-hosts", Usage: "comma-separated public names clients may use as Host besides loopback (env " + serve.EnvAllowedHosts + ")"},
		&cli.StringFlag{Name: "allowed-origins", Usage: "comma-separated cross-origin callers (scheme://host[:port]) allowed, with CORS (env " + serve.EnvAllowedOrigins + ")"},
		&cli.DurationFlag{Name: "read-timeout", Usage: "time a client has to send a request's headers (at most 10s) and body (env " + serve.EnvReadTimeout + ")", DefaultText: "30s"},
		&cli.DurationFlag{Name: "idle-timeout", Usage: "how long a kept-alive connection may idle (env " + serve.EnvIdleTimeout + ")", DefaultText: "2m0s"},
		&cli.IntFlag{Name: "max-sessions", Usage: "cap on concurrent MCP sessions, 0 for none (env " + serve.EnvMaxSessions + ")", DefaultText: "256"},
		&cli.DurationFlag{Name: "session-idle", Usage: "an MCP session without a request for this long is closed (env " + serve.EnvSessionIdle + ")", DefaultText: "10m0s"},
		&cli.Float64Flag{Name: "event-rate", Usage: "POST /event requests per second, 0 for no limit (env " + serve.EnvEventRate + ")", DefaultText: "10"},
		&cli.IntFlag{Name: "event-burst", Usage: "POST /event burst (env " + serve.EnvEventBurst + ")", DefaultText: "20"},
		&cli.Float64Flag{Name: "trigger-register-rate", Usage: "register_trigger calls per second, 0 for no limit (env " + serve.EnvTriggerRegisterRate + ")", DefaultText: "1"},
		&cli.IntFlag{Name: "trigger-register-burst", Usage: "register_trigger burst (env " + serve.EnvTriggerRegisterBurst + ")", DefaultText: "10"},
	}
}

// applyHTTPFlags lays the flags the operator set over hs.
func applyHTTPFlags(c *cli.Context, hs *serve.HTTPSettings) error {
	if c.IsSet("allowed-hosts") {
		hs.AllowedHosts = serve.SplitList(c.String("allowed-hosts"))
	}
	if c.IsSet("allowed-origins") {
		hs.AllowedOrigins = serve.SplitList(c.String("allowed-origins"))
	}
	for name, to := range map[string]*time.Duration{"read-timeout": &hs.ReadTimeout, "idle-timeout": &hs.IdleTimeout, "session-idle": &hs.SessionIdle} {
		if c.IsSet(name) {
			if c.Duration(name) <= 0 {
				return fmt.Errorf("--%s %s: want a positive duration", name, c.Duration(name))
			}
			*to = c.Duration(name)
		}
	}
	for name, to := range map[string]*int{"max-sessions": &hs.MaxSessions, "event-burst": &hs.EventBurst, "trigger-register-burst": &hs.TriggerRegisterBurst} {
		if c.IsSet(name) {
			if c.Int(name) < 0 {
				return fmt.Errorf("--%s %d: want 0 or more", name, c.Int(name))
			}
			*to = c.Int(name)
		}
	}
	for name, to := range map[string]*float64{"event-rate": &hs.EventRate, "trigger-register-rate": &hs.TriggerRegisterRate} {
		if c.IsSet(name) {
			if c.Float64(name) < 0 {
				return fmt.Errorf("--%s %g: want 0 (no limit) or more", name, c.Float64(name))
			}
			*to = c.Float64(name)
		}
	}
	return nil
}

// redactedURL is u with any password replaced (u itself when it does not
// parse).
func redactedURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return p.Redacted()
}
