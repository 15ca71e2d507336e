package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	"github.com/skillscript/skillc/lint"
)

// ContextFrom builds a lint context from the resolved configuration and the
// parsed connectors.json (conns may be nil when no connectors file was
// found) for checking the file at path. The shell allowlist and the
// unsafe-shell switch count as known when a configuration or connectors
// file was found or the environment sets them (then the runtime's
// default-deny applies); otherwise the shell rules stay silent. It indexes
// the configured skills directory when it exists.
func ContextFrom(cfg *config.Config, conns *connectors.File, path string) *lint.Context {
	return contextFrom(cfg, conns, path, os.Getwd, lint.SkillDirOptions{})
}

// contextFrom is ContextFrom with the working directory from getwd and
// what dirOpts provide to the skill directory's index (its listing, the
// sources the command holds; lint.OpenSkillDirWith).
func contextFrom(cfg *config.Config, conns *connectors.File, path string, getwd func() (string, error), dirOpts lint.SkillDirOptions) *lint.Context {
	ctx := &lint.Context{FilePath: path}
	if cfg != nil {
		deployed := cfg.ConfigPath != "" || cfg.ConnectorsPath != ""
		ctx.ShellAllowlistKnown = deployed || cfg.Origins["shell_allowlist"] != "default"
		ctx.ShellAllowlist = append([]string(nil), cfg.ShellAllowlist...)
		ctx.FSAllowlistKnown = deployed || cfg.Origins["fs_allowlist"] != "default"
		ctx.FSBase, _ = getwd()
		ctx.FSAllowlist = fsRoots(ctx.FSBase, cfg.FSAllowlist)
		ctx.UnsafeShellKnown = deployed || cfg.Origins["enable_unsafe_shell"] != "default"
		ctx.UnsafeShell = cfg.EnableUnsafeShell
		// The implicit default store ($SKILLSCRIPT_HOME/skills) counts only
		// inside a deployment (a config or connectors file was found) or
		// when set explicitly, so lint results never depend on whether an
		// earlier run happened to create that directory.
		explicitStore := deployed || (cfg.Origins["skills_dir"] != "" && cfg.Origins["skills_dir"] != "default")
		if cfg.SkillsDir != "" && explicitStore {
			if st, err := os.Stat(cfg.SkillsDir); err == nil && st.IsDir() {
				if idx, err := lint.OpenSkillDirWith(cfg.SkillsDir, dirOpts); err == nil {
					ctx.SkillsKnown, ctx.Skills = true, idx
					ctx.SkillsImplicit = cfg.Origins["skills_dir"] == OriginSkillDir
				}
			}
		}
	}
	if conns != nil {
		addConnectors(ctx, conns)
	}
	if cfg != nil {
		addApproval(ctx, cfg)
	}
	return ctx
}

// fsRoots returns the filesystem allowlist roots as the runtime's gate
// holds them: absolute (relative roots from base), with symbolic links
// resolved where the root exists.
func fsRoots(base string, roots []string) []string {
	var out []string
	for _, r := range roots {
		if strings.TrimSpace(r) == "" {
			continue
		}
		if !filepath.IsAbs(r) {
			r = filepath.Join(base, r)
		}
		if resolved, err := filepath.EvalSymlinks(r); err == nil {
			r = resolved
		}
		out = append(out, filepath.Clean(r))
	}
	return out
}

// addConnectors fills the connector, substrate and model facts.
func addConnectors(ctx *lint.Context, f *connectors.File) {
	ctx.ConnectorsKnown = true
	ctx.Connectors = map[string]*lint.Connector{}
	for _, c := range f.Connectors {
		ctx.Connectors[c.Name] = connectorOf(c)
	}
	ctx.Substrates = map[string]bool{
		"data_store":      slotWired(f.Substrate.DataStore),
		"skill_store":     slotWired(f.Substrate.SkillStore),
		"local_model":     slotWired(f.Substrate.LocalModel) || len(f.Models) > 0,
		"agent_connector": slotWired(f.Substrate.AgentConnector),
	}
	ctx.AgentConnectorKnown = true
	ctx.AgentConnector = ctx.Substrates["agent_connector"]
	ctx.ModelsKnown = len(f.Models) > 0
	for _, m := range f.Models {
		ctx.Models = appendUnique(ctx.Models, m.Name)
		if m.Model != "" {
			ctx.Models = appendUnique(ctx.Models, m.Model)
		}
	}
}

func slotWired(s connectors.Slot) bool {
	return s.Set && !s.Null && s.Type != "" && s.Type != "noop"
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// connectorOf is the linter's view of one connectors.json entry.
func connectorOf(c *connectors.Connector) *lint.Connector {
	out := &lint.Connector{
		Name: c.Name, Class: c.Class, AllowedTools: c.AllowedTools,
		Mutating: c.Mutating, MutatingTools: c.MutatingTools, ReadOnly: c.ReadOnly,
		ToolsKnown: len(c.Tools) > 0, Tools: map[string]*lint.Tool{},
	}
	for _, t := range c.Tools {
		out.Tools[t.Name] = &lint.Tool{Name: t.Name, Description: t.Description, Schema: t.InputSchema, OutputSchema: t.OutputSchema, Mutating: t.Mutating, ReadOnly: t.ReadOnly}
	}
	return out
}

// CheckConnectors applies the lint options (severity overrides, disabled
// rules) to the diagnostics connectors.Parse reported for the
// connectors.json at path.
func CheckConnectors(path string, src []byte, problems ast.Diagnostics, opts lint.Options) ast.FileDiagnostics {
	fd := ast.FileDiagnostics{File: path, Src: src}
	for _, d := range problems {
		sev, on := opts.Effective(d.Rule, d.Severity)
		if !on {
			continue
		}
		cp := *d
		cp.Severity = sev
		fd.Diags = append(fd.Diags, &cp)
	}
	fd.Diags.Sort()
	return fd
}
