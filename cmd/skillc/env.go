package main

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/config"
	"github.com/skillscript/skillc/syntax"
	"github.com/urfave/cli/v2"
)

// configFlags are the configuration flags shared by check, fmt and run.
func configFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "path of skillscript.config.json (default: nearest upward, then $SKILLSCRIPT_HOME)"},
		&cli.StringFlag{Name: "connectors", Usage: "path of connectors.json (default: nearest upward, then $SKILLSCRIPT_HOME)"},
		&cli.StringFlag{Name: "skills", Usage: "directory of *.skill.md files used as the skill store"},
	}
}

// envCache loads the configuration once per directory; files in the same
// directory share it.
type envCache struct {
	configPath, connectorsPath, skillsDir string

	mu    sync.Mutex
	byDir map[string]*analysisEnv
	warns []string
}

// analysisEnv is what checking one file needs beyond its source.
type analysisEnv struct {
	cfg *config.Config
}

func newEnvCache(c *cli.Context) *envCache {
	return &envCache{
		configPath:     c.String("config"),
		connectorsPath: c.String("connectors"),
		skillsDir:      c.String("skills"),
		byDir:          map[string]*analysisEnv{},
	}
}

func (e *envCache) forFile(path string) *analysisEnv {
	dir := "."
	if path != "-" {
		dir = filepath.Dir(path)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if env, ok := e.byDir[dir]; ok {
		return env
	}
	home, _ := os.UserHomeDir()
	cfg, problems := config.Load(config.LoadOptions{
		ConfigPath:     e.configPath,
		ConnectorsPath: e.connectorsPath,
		StartDir:       dir,
		Env:            os.LookupEnv,
		Home:           home,
	})
	for _, p := range problems {
		e.warns = append(e.warns, p.String())
	}
	if e.skillsDir != "" {
		cfg.SkillsDir = e.skillsDir
	}
	env := &analysisEnv{cfg: cfg}
	e.byDir[dir] = env
	return env
}

func (e *envCache) problems() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, w := range e.warns {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// analyze parses, checks and lints one source.
func analyze(name string, src []byte, env *analysisEnv) ast.Diagnostics {
	f, ds := syntax.Parse(name, src)
	_ = check.Check(f)
	return ds
}
