package hostcli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"time"

	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/approval"
	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/dashboard"
	"github.com/skillscript/skillc/internal/host/httpguard"
	"github.com/skillscript/skillc/internal/host/serve"
	"github.com/skillscript/skillc/internal/host/service"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
	"github.com/urfave/cli/v2"
)

// The operator's dashboard settings (process environment only).
const (
	envPasscode       = "SKILLSCRIPT_APPROVAL_PASSCODE"
	envDashboardToken = "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN"
)

// opEnv is what the dashboard command reads: the configuration, the key
// files, the operator's skill store (as skillc's approval commands open
// them) and the dashboard's assembly.
type opEnv struct {
	cfg   *config.Config
	mut   effects.Mutating // connectors.json's mutating declarations
	keys  approval.KeyPaths
	store contract.SkillStore
	lint  *lint.Context // the linter's view of the workspace (the dashboard's skill page)
	// host is the dashboard's assembly (its trace store: --database, a
	// postgres:// store shared by several hosts, else
	// $SKILLSCRIPT_HOME/traces)
	host *service.Host
}

// newOpEnv loads the configuration of the working directory (as skillc's
// approval commands do) and opens the operator's skill store.
func newOpEnv(c *cli.Context) (*opEnv, error) {
	dir, err := filepath.Abs(".")
	if err != nil {
		dir = "."
	}
	env := workspace.Load(dir, skillcli.LoadOptions(c))
	e := &opEnv{cfg: env.Config, keys: host.KeyPaths(), mut: env.Mutating(), lint: env.Lint}
	st, err := skillcli.SkillStore(c, env.Config)
	if err != nil {
		return nil, err
	}
	e.store = st
	return e, nil
}

func dashboardCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "dashboard",
		Usage: skillcli.HostUsage("dashboard"),
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "host", Usage: "bind address (default: SKILLSCRIPT_HOST, else 127.0.0.1)"},
			&cli.IntFlag{Name: "port", Usage: "port (default: SKILLSCRIPT_PORT, else 7878; 0 picks a free port)", Value: -1},
			skillcli.DatabaseFlag(),
		}, append(httpFlags()[:4], skillcli.ConfigFlags()...)...), // names, origins and timeouts; the MCP and rate limits are serve's
		Action: func(c *cli.Context) error {
			e, err := newOpEnv(c)
			if err != nil {
				return cli.Exit(err.Error(), skillcli.ExitUsage)
			}
			e.host = service.Open(skillcli.HostConfig(c, e.cfg, ""))
			defer e.host.Close()
			return e.serveDashboard(c, s)
		},
	}
}

// dashboard takes the handler from the host assembly, built from the operator's settings: the store,
// the verification posture, the key files and the passcode, all from the
// process environment and configuration (never a file next to a skill).
func (e *opEnv) dashboard(s *streams) *dashboard.Dashboard {
	policy, generated := host.Policy(e.cfg)
	if generated {
		fmt.Fprintf(s.err, "skillc: secured mode: created the approval key pair %s (0600) and %s\n", e.keys.Private, e.keys.Public)
	}
	o := dashboardOptions(e.store, policy, e.mut, s)
	o.Lint = e.lint
	if h := e.host; h != nil && h.TracesConfigured() {
		// read what skillc serve and skillc run recorded (never create the
		// SQLite database: with nothing recorded the pages say so); a store
		// that cannot be opened leaves the trace pages empty, with a line here
		if st, err := h.Traces(context.Background(), false); err == nil {
			o.Traces = st
		} else if !errors.Is(err, ihost.ErrNoTraces) {
			fmt.Fprintf(s.err, "skillc dashboard: trace pages disabled: %v\n", err)
		}
	}
	return e.host.Dashboard(o)
}

// dashboardOptions are the dashboard's settings: the operator's store and
// posture, the key files, the passcode and token from the environment.
func dashboardOptions(store contract.SkillStore, policy approval.Policy, mut effects.Mutating, s *streams) dashboard.Options {
	return dashboard.Options{
		Store: store, Policy: policy, Keys: host.KeyPaths(), Mutating: mut, Log: s.err,
		Passcode: os.Getenv(envPasscode), AuthToken: os.Getenv(envDashboardToken),
	}
}

func (e *opEnv) serveDashboard(c *cli.Context, s *streams) error {
	set, err := serve.SettingsFrom(e.cfg)
	if err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	if err := applyHTTPFlags(c, &set.HTTP); err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	host, port := dashboardHost(c, e), dashboardPort(c, e)
	// the bind check skillc serve makes: a listener that may reach beyond
	// this machine needs the dashboard token
	if err := httpguard.CheckBind(c.Context, nil, host, port,
		httpguard.Token{Env: envDashboardToken, Guards: "the dashboard", Set: os.Getenv(envDashboardToken) != ""}); err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return cli.Exit(err.Error(), skillcli.ExitUsage)
	}
	g := &httpguard.Guard{Hosts: set.HTTP.AllowedHosts, Origins: set.HTTP.AllowedOrigins}
	srv := httpguard.NewServer(g.Wrap(g.RequireForm(e.dashboard(s))), httpguard.Timeouts{Read: set.HTTP.ReadTimeout, Idle: set.HTTP.IdleTimeout})
	fmt.Fprintf(s.out, "skillc dashboard: http://%s/\n", ln.Addr())
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return cli.Exit(err.Error(), skillcli.ExitFindings)
	}
	return nil
}

func dashboardHost(c *cli.Context, e *opEnv) string {
	if c.IsSet("host") {
		return c.String("host")
	}
	return e.cfg.Host
}

func dashboardPort(c *cli.Context, e *opEnv) int {
	if c.Int("port") >= 0 {
		return c.Int("port")
	}
	return e.cfg.Port
}

// dashboardRoute mounts the approvals dashboard in skillc serve at
// /dashboard/, over the operator's store (not the runner's, which lands
// writes as Drafts in secured mode).
// The assembly asm builds the handler. The dashboard shares the host's token (SKILLSCRIPT_DASHBOARD_AUTH_TOKEN,
// which also guards /mcp).
func dashboardRoute(asm *service.Host, r *eval.Runner, policy approval.Policy, ws *workspace.Env, traces *trace.Store, token string, s *streams) map[string]http.Handler {
	var store contract.SkillStore
	if r.Registry != nil {
		store = host.OperatorStore(r.Registry.Skills)
	}
	o := dashboardOptions(store, policy, ws.Mutating(), s)
	o.Prefix, o.AuthToken, o.Traces, o.Lint = "/dashboard", token, traces, ws.Lint
	return map[string]http.Handler{"/dashboard/": http.StripPrefix(o.Prefix, asm.Dashboard(o))}
}
