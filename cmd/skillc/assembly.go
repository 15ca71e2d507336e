package main

import (
	"os"

	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/urfave/cli/v2"
)

// hostFor assembles the host of a command (issue 23): the trace directory
// of cfg and the trace database decided by ihost.Resolve from the
// command's --database flag (when it has one), SKILLSCRIPT_DATABASE_URL
// and configDB (skillc serve's settings file), the one place the CLI
// chooses between them.
func hostFor(c *cli.Context, cfg *config.Config, configDB string) *ihost.Host {
	env, envSet := os.LookupEnv(ihost.EnvDatabaseURL)
	db, _ := ihost.Resolve(ihost.Layers{Flag: c.String("database"), FlagSet: c.IsSet("database"), Env: env, EnvSet: envSet, Config: configDB})
	return ihost.Open(ihost.Config{TraceDir: cfg.TraceDir, DatabaseURL: db})
}
