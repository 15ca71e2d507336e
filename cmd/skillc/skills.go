package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/skillrt"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/skillmd"
	"github.com/urfave/cli/v2"
)

// skillsCommand is `skillc skills`: the registry of SKILL.md packages and
// skillscripts seen from the command line.
func skillsCommand(s *streams) *cli.Command {
	flags := append([]cli.Flag{
		&cli.StringSliceFlag{Name: "root", Usage: "extra skill root directory (repeatable; origin config, config-2, ...)"},
		&cli.StringFlag{Name: "project", Value: ".", Usage: "project directory whose .agents/skills is scanned"},
		&cli.BoolFlag{Name: "no-user", Usage: "do not scan ~/.agents/skills"},
		&cli.BoolFlag{Name: "json", Usage: "print JSON"},
	}, slices.Concat(skillMDFlags(), gatewayFlags(), skillsLimitFlags())...)
	return &cli.Command{
		Name:  "skills",
		Usage: "list, show, preview and validate Agent Skills packages and skillscripts from the skill roots",
		Subcommands: append([]*cli.Command{
			{Name: "list", Usage: "list the visible skills with their classification (shadowed ones on stderr); filter and page like the gateway's skills_list",
				Flags: slices.Concat(flags, []cli.Flag{
					&cli.StringFlag{Name: "domain", Usage: "keep skills of this domain (metadata domain or tag)"},
					&cli.StringFlag{Name: "role", Usage: "procedure, utility or sidecar"},
					&cli.StringFlag{Name: "status", Usage: "keep skills with this status (Draft, Approved, stable, ...)"},
					&cli.StringFlag{Name: "kind", Usage: "agentskill or skillscript"},
					&cli.IntFlag{Name: "offset", Usage: "skip this many skills"},
					&cli.IntFlag{Name: "limit", Usage: "skills per page (default: all)"}}),
				Action: func(c *cli.Context) error { return skillsList(c, s) }},
			{Name: "show", Usage: "print one skill's record", ArgsUsage: "NAME|ORIGIN/NAME", Flags: flags, Action: func(c *cli.Context) error { return skillsShow(c, s) }},
			{Name: "load-preview", Usage: "print the instructions a session would get after skills_load NAME...", ArgsUsage: "NAME...", Flags: flags, Action: func(c *cli.Context) error { return skillsPreview(c, s) }},
			{Name: "validate", Usage: "validate every skill in the roots; exit 1 on errors", Flags: append(flags, &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "human", Usage: "human, json, sarif or github"}), Action: func(c *cli.Context) error { return skillsValidate(c, s) }},
			approveScriptsCommand(s, flags),
		}, gatewaySubcommands(s, flags)...),
	}
}

// skillsEnv is what the skills subcommands work from: the registry over
// the roots, the gateway configuration and the project's lint options.
type skillsEnv struct {
	asm  *ihost.Host // builds the registry, runtime and gateway once
	reg  *registry.Registry
	cfg  gateway.Config
	opts lint.Options
	ws   *workspace.Env
	// indexCache is the gateway's persisted index file ("" for none).
	indexCache string
}

// Environment variables of the registry limits.
const (
	envMaxScanDirs   = "SKILLSCRIPT_SKILLS_MAX_SCAN_DIRS"
	envCatalogBudget = "SKILLSCRIPT_SKILLS_CATALOG_BUDGET"
	envIndexCache    = "SKILLSCRIPT_SKILLS_INDEX_CACHE"
)

// skillsLimitFlags are the registry's scan limit and the prompt catalog
// budget; the flag wins over the environment, which wins over the
// gateway configuration file (max_scan_dirs, catalog_budget_bytes).
func skillsLimitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "max-scan-dirs", Usage: "directories scanned per skill root before the scan stops and says so (default 2000; env " + envMaxScanDirs + ")", EnvVars: []string{envMaxScanDirs}},
		&cli.IntFlag{Name: "catalog-budget", Usage: "bytes of the <available_skills> prompt block (default 16384; env " + envCatalogBudget + ")", EnvVars: []string{envCatalogBudget}},
		&cli.StringFlag{Name: "index-cache", Usage: "directory of the persisted skill index (default: the user cache directory's skillc folder; \"off\" disables it; env " + envIndexCache + ")", EnvVars: []string{envIndexCache}},
	}
}

// indexCacheFiles resolves where the registry and the gateway persist
// their indexes for these roots: the --index-cache flag (or its
// environment variable) over the configuration file's index_cache over
// the user cache directory; "off" (or no cache directory) disables
// persistence. The file names carry a hash of the roots and the
// validation profile, so catalogs do not evict each other.
func indexCacheFiles(c *cli.Context, cfg gateway.Config, roots []registry.Root, profile string) (reg, gw string) {
	dir := cfg.IndexCache
	if c.IsSet("index-cache") {
		dir = c.String("index-cache")
	}
	return skillcli.CacheFiles(dir, roots, profile)
}

// skillsLimits resolves the scan limit and the catalog budget: flag (or
// its environment variable) over the configuration file over the
// default.
func skillsLimits(c *cli.Context, cfg gateway.Config) (maxDirs, budget int, err error) {
	maxDirs, budget = cfg.MaxScanDirs, cfg.CatalogBudget
	if c.IsSet("max-scan-dirs") {
		maxDirs = c.Int("max-scan-dirs")
	}
	if c.IsSet("catalog-budget") {
		budget = c.Int("catalog-budget")
	}
	if maxDirs <= 0 || budget <= 0 {
		return 0, 0, cli.Exit(fmt.Sprintf("--max-scan-dirs (%d) and --catalog-budget (%d) must be positive", maxDirs, budget), exitUsage)
	}
	return maxDirs, budget, nil
}

// openRegistry indexes the roots: the project's and the user's
// .agents/skills, the --root directories and, when it exists, the
// configured skillscript store (origin "store").
// A scan cut short by the limit is reported on stderr.
func openRegistry(c *cli.Context, s *streams) (*skillsEnv, error) {
	vopts, err := skillMDOptions(c)
	if err != nil {
		return nil, err
	}
	cfg, err := gateway.LoadConfig(c.String("gateway-config"))
	if err != nil {
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	maxDirs, budget, err := skillsLimits(c, cfg)
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	ws := workspace.Load(c.String("project"), workspace.LoadOptions{Env: os.LookupEnv, Home: home})
	if c.Bool("no-user") {
		home = ""
	}
	roots := registry.DefaultRoots(c.String("project"), home, c.StringSlice("root")...)
	if dir := ws.Config.SkillsDir; dir != "" {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			roots = append(roots, registry.Root{Dir: dir, Origin: "store"})
		}
	}
	regCache, gwCache := indexCacheFiles(c, cfg, roots, fmt.Sprintf("%+v", vopts))
	hc := skillcli.HostConfig(c, ws.Config, "") // the trace store of skills run and attach
	hc.Gateway, hc.Skills = cfg, skillrt.Options{CatalogBudget: budget}
	hc.Registry = registry.Options{Roots: roots, Validation: vopts, MaxDirs: maxDirs, CacheFile: regCache}
	asm := ihost.Open(hc)
	reg := asm.Registry()
	if w := reg.TruncationWarning(); w != "" {
		fmt.Fprintf(s.err, "skillc: warning: %s\n", w)
	}
	return &skillsEnv{asm: asm, reg: reg, cfg: cfg, opts: ws.LintOptions, ws: ws, indexCache: gwCache}, nil
}

func skillsList(c *cli.Context, s *streams) error {
	env, err := openRegistry(c, s)
	if err != nil {
		return err
	}
	reg := env.reg
	g := env.asm.Gateway(gateway.Options{})
	defer env.asm.Close()
	page, err := listAll(c.Context, g, gateway.ListRequest{Domain: c.String("domain"), Role: c.String("role"), Status: c.String("status"),
		Kind: c.String("kind"), Offset: c.Int("offset"), Limit: c.Int("limit")}, c.IsSet("limit") || c.IsSet("offset"))
	if err != nil {
		return gatewayErr(c, s, err)
	}
	if c.Bool("json") {
		return writeJSON(s, page)
	}
	for _, r := range page.Skills {
		rec, _ := reg.Lookup(r.SkillID)
		class := "-"
		if r.Role != "" {
			class = r.Role + "/" + r.Invocation + "/" + r.EffectMode
		}
		fmt.Fprintf(s.out, "%-32s %-11s %-9s %-34s %-12s %s\n", r.Name, r.Kind, rec.Origin, class, dash(r.Status), oneLine(r.Description, 80))
	}
	if page.NextOffset > 0 {
		fmt.Fprintf(s.err, "skillc: %d of %d shown; next page: --offset %d\n", len(page.Skills), page.Total, page.NextOffset)
	}
	for _, p := range reg.Problems() {
		fmt.Fprintf(s.err, "%s: %s[%s]: %s\n", p.File, p.Severity, p.Rule, p.Message)
	}
	return nil
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func writeJSON(s *streams, v any) error {
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func skillsShow(c *cli.Context, s *streams) error {
	if c.NArg() != 1 {
		return cli.Exit("show takes one skill name or origin/name", exitUsage)
	}
	env, err := openRegistry(c, s)
	if err != nil {
		return err
	}
	reg := env.reg
	rec, ok := reg.Lookup(c.Args().First())
	if !ok {
		return cli.Exit(fmt.Sprintf("unknown skill %q; known: %s", c.Args().First(), strings.Join(reg.Names(), ", ")), exitFindings)
	}
	return writeJSON(s, rec)
}

func skillsPreview(c *cli.Context, s *streams) error {
	env, err := openRegistry(c, s)
	if err != nil {
		return err
	}
	rt := env.asm.Skills()
	out, err := rt.Load("preview", skillrt.LoadInput{Names: c.Args().Slice()})
	if err != nil {
		return cli.Exit(err.Error(), exitFindings)
	}
	if c.Bool("json") {
		return writeJSON(s, out)
	}
	fmt.Fprint(s.out, rt.Compose("preview"))
	for _, sc := range out.Skillscripts {
		fmt.Fprintf(s.out, "\n%s: %s\n", sc.Name, sc.Run)
	}
	return nil
}

// skillsValidate renders every record's diagnostics and the registry's
// problems like skillc check does.
func skillsValidate(c *cli.Context, s *streams) error {
	env, err := openRegistry(c, s)
	if err != nil {
		return err
	}
	reg := env.reg
	var results []ast.FileDiagnostics
	for _, rec := range reg.All() {
		ds := append(ast.Diagnostics(nil), rec.Diagnostics()...)
		if rec.Kind == registry.KindScript {
			u := workspace.Parse(rec.Location, rec.Source())
			ds = lint.CheckWith(u.File, u.Info, u.ParsedCopy(), nil, env.opts)
		} else if s, _ := agentskills.Parse(agentskills.Input{Path: rec.Location, Src: rec.Source()}, agentskills.Options{}); s != nil {
			ds = skillmd.Finish(s, ds, env.opts)
		}
		results = append(results, ast.FileDiagnostics{File: rec.Location, Src: rec.Source(), Diags: ds})
	}
	byPath := map[string]ast.Diagnostics{}
	for _, p := range reg.Problems() {
		byPath[p.File] = append(byPath[p.File], p)
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		results = append(results, ast.FileDiagnostics{File: p, Diags: byPath[p]})
	}
	if err := writeReport(s, s.out, results, checkOptions{format: c.String("format")}, false); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if failing(results, ast.Error) {
		return cli.Exit("", exitFindings)
	}
	return nil
}
