package main

import (
	"os"

	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/urfave/cli/v2"
)

// hostFor assembles the host of a command (issue 23) from hostConfig.
func hostFor(c *cli.Context, cfg *config.Config, configDB string) *ihost.Host {
	return ihost.Open(hostConfig(c, cfg, configDB))
}

// hostConfig is the assembly's configuration of a command: the trace
// directory of cfg and the trace database decided by ihost.Resolve from
// the command's --database flag (when it has one),
// SKILLSCRIPT_DATABASE_URL and configDB (a configuration file's value),
// the one place the CLI chooses between them.
func hostConfig(c *cli.Context, cfg *config.Config, configDB string) ihost.Config {
	env, envSet := os.LookupEnv(ihost.EnvDatabaseURL)
	db, _ := ihost.Resolve(ihost.Layers{Flag: c.String("database"), FlagSet: c.IsSet("database"), Env: env, EnvSet: envSet, Config: configDB})
	return ihost.Config{TraceDir: cfg.TraceDir, DatabaseURL: db}
}
