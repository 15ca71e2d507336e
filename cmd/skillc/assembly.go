package main

import (
	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/urfave/cli/v2"
)

// hostFor assembles the host of a command (issue 23) from hostConfig.
func hostFor(c *cli.Context, cfg *config.Config, configDB string) *ihost.Host {
	return ihost.Open(skillcli.HostConfig(c, cfg, configDB))
}
