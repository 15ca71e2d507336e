package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/leaf/connectors"
)

// Settings are the inputs besides connectors.json. The zero value needs
// Home set.
type Settings struct {
	// Home is $SKILLSCRIPT_HOME; default paths live under it.
	Home string
	// Env looks up environment variables (OLLAMA_BASE_URL, OPENAI_API_KEY,
	// OPENAI_BASE_URL, DATA_DB and ${VAR} references); nil means none set.
	Env connectors.EnvFunc
	// CacheDir holds discovered MCP tool lists; default Home/cache/tools.
	CacheDir string
	// CacheTTL is the tool-list freshness window; 0 means the default.
	CacheTTL time.Duration
	// Log receives warnings (NoOp deliveries, ignored custom slots).
	Log io.Writer
	// SkipHealthCheck skips start-up health checks (for lint and the
	// language server, which only need tool lists).
	SkipHealthCheck bool
	// LazyConnectors leaves MCP connectors and the embedded data store
	// out of the start-up health check, so no server is spawned and no
	// database opened before a skill uses them (a broken one then fails
	// the op that reaches it, with the same error).
	LazyConnectors bool
	// CheckModels also health-checks configured local models.
	CheckModels bool
	Now         func() time.Time
}

func (s Settings) env(name string) string {
	if s.Env == nil {
		return ""
	}
	v, _ := s.Env(name)
	return v
}

func (s Settings) warn(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, "warning: "+format+"\n", args...)
	}
}

// DefaultHome returns $SKILLSCRIPT_HOME, or ~/.skillscript.
func DefaultHome(env connectors.EnvFunc) string {
	if env != nil {
		if h, ok := env("SKILLSCRIPT_HOME"); ok && h != "" {
			return h
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".skillscript")
	}
	return ".skillscript"
}

// ConfigError reports connectors.json problems that prevent wiring.
type ConfigError struct {
	Path  string
	Src   []byte
	Diags ast.Diagnostics
}

// Error lists every error-severity problem as path:line:col: message.
func (e *ConfigError) Error() string {
	return strings.Join(locate(e.Path, e.Src, e.Diags, ast.Error), "\n")
}

// locate formats the diagnostics of severity sev as path:line:col: message
// (columns count characters).
func locate(path string, src []byte, ds ast.Diagnostics, sev ast.Severity) []string {
	lines := ast.NewLineTable(src)
	var out []string
	for _, d := range ds {
		if d.Severity == sev {
			pos := lines.Position(d.Range.From)
			out = append(out, fmt.Sprintf("%s:%d:%d: %s", path, pos.Line, pos.Column, d.Message))
		}
	}
	return out
}

// Load reads and parses the connectors.json at path (a missing file is an
// empty configuration), then builds the registry.
func Load(ctx context.Context, path string, s Settings) (*contract.Registry, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	f, problems := connectors.Parse(data, s.Env)
	for _, w := range locate(path, data, problems, ast.Warning) {
		s.warn("%s", w)
	}
	if problems.HasErrors() {
		return nil, &ConfigError{Path: path, Src: data, Diags: problems}
	}
	return Build(ctx, f, s)
}

// Build wires every slot of f (nil means an empty file) and runs the
// start-up health checks. On error everything opened so far is closed.
func Build(ctx context.Context, f *connectors.File, s Settings) (*contract.Registry, error) {
	if f == nil {
		f = &connectors.File{}
	}
	if s.Home == "" {
		return nil, errors.New("wire: settings need a home directory ($SKILLSCRIPT_HOME)")
	}
	if s.CacheDir == "" {
		s.CacheDir = filepath.Join(s.Home, "cache", "tools")
	}
	r := &contract.Registry{}
	steps := []func() error{
		func() error { return buildConnectors(r, f, s) },
		func() error { return buildModels(r, f, s) },
		func() (err error) { r.Data, err = buildDataStore(f.Substrate.DataStore, s); return err },
		func() (err error) { r.Skills, err = buildSkillStore(f.Substrate.SkillStore, s); return err },
		func() error { return buildAgents(r, f.Substrate.AgentConnector, s) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			r.Close()
			return nil, err
		}
	}
	if !s.SkipHealthCheck {
		checked := r
		if s.LazyConnectors {
			cp := *r
			cp.Connectors = nil
			cp.Data = nil
			checked = &cp
		}
		if err := HealthCheck(ctx, checked, s.CheckModels); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

type healthChecker interface{ HealthCheck(context.Context) error }

// HealthCheck checks every connector, agent connector and store of r (and
// its models when models is set), returning all failures joined.
func HealthCheck(ctx context.Context, r *contract.Registry, models bool) error {
	var errs []error
	for _, name := range r.ConnectorNames() {
		if err := r.Connectors[name].Connector.HealthCheck(ctx); err != nil {
			errs = append(errs, fmt.Errorf("connector %q failed its health check: %w", name, err))
		}
	}
	for i, a := range r.Agents {
		if err := a.HealthCheck(ctx); err != nil {
			errs = append(errs, fmt.Errorf("agent connector %d failed its health check: %w", i, err))
		}
	}
	for _, st := range []any{r.Data, r.Skills} {
		if hc, ok := st.(healthChecker); ok {
			if err := hc.HealthCheck(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if models {
		for name, m := range r.Models {
			if hc, ok := m.(healthChecker); ok {
				if err := hc.HealthCheck(ctx); err != nil {
					errs = append(errs, fmt.Errorf("local model %q: %w", name, err))
				}
			}
		}
	}
	return errors.Join(errs...)
}
