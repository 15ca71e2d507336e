package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/mcp"
	"github.com/skillscript/skillc/eval/toolcache"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// toolsCommand is "skillc tools refresh|list [CONNECTOR...]": the MCP tool
// cache the schema rules read.
func toolsCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "show or refresh the MCP tool lists the schema rules check against",
		Subcommands: []*cli.Command{
			{
				Name:      "list",
				Usage:     "list each MCP connector's tools (asking a server only when its cached list is stale or missing)",
				ArgsUsage: "[CONNECTOR...]",
				Flags:     append(configFlags(), toolFlags()...),
				Action:    func(c *cli.Context) error { return runTools(c, s, false) },
			},
			{
				Name:      "refresh",
				Usage:     "ask every MCP server for tools/list now (introspection only) and rewrite the cache",
				ArgsUsage: "[CONNECTOR...]",
				Flags:     append(configFlags(), toolsTimeoutFlag()),
				Action:    func(c *cli.Context) error { return runTools(c, s, true) },
			},
		},
	}
}

// dialMCP opens a connector's tool list with the MCP client of
// eval/substrate/mcp: the Dialer of every warm-up the CLI runs (check,
// run's pre-check, tools, the language server).
func dialMCP(c *connectors.Connector, cache toolcache.Cache) (workspace.ToolLister, error) {
	conn, err := mcp.FromConfig(c, cache)
	if err != nil {
		return nil, err
	}
	return conn, nil
}

func runTools(c *cli.Context, s *streams, refresh bool) error {
	env := newEnvCache(c).forFile(".")
	if env.Config.ConnectorsPath == "" {
		return cli.Exit("no connectors.json found (pass --connectors or put one in $SKILLSCRIPT_HOME)", exitUsage)
	}
	only := c.Args().Slice()
	for _, name := range only {
		if env.Connectors.Connector(name) == nil {
			return cli.Exit(fmt.Sprintf("%s has no connector %q", env.Config.ConnectorsPath, name), exitUsage)
		}
	}
	if len(only) == 0 {
		only = nil
	}
	o := workspace.WarmOptions{Dial: dialMCP, Refresh: refresh, Connectors: only, Timeout: c.Duration("tools-timeout"), Offline: c.Bool("offline"), OperatorOnly: true}
	results, _ := workspace.WarmTools(c.Context, env, o)
	failed := false
	for _, r := range results {
		printToolList(s, r)
		failed = failed || (refresh && r.Err != nil)
	}
	if failed {
		return cli.Exit("", exitFindings)
	}
	return nil
}

// printToolList prints one connector's result: a header line with where
// the list came from, then one line per tool with its arguments (required
// ones marked *).
func printToolList(s *streams, r workspace.WarmResult) {
	head := fmt.Sprintf("%s (%s", r.Connector, r.Source)
	if r.Known() {
		head += fmt.Sprintf(", %d tools", len(r.Tools))
	}
	head += ")"
	if r.Err != nil {
		head += ": " + r.Err.Error()
	}
	fmt.Fprintln(s.out, head)
	tools := append([]contract.Tool(nil), r.Tools...)
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	for _, t := range tools {
		line := fmt.Sprintf("  %s(%s)", t.Name, strings.Join(schemaArgs(t.InputSchema), ", "))
		if t.Description != "" {
			line += "  " + firstLine(t.Description)
		}
		fmt.Fprintln(s.out, line)
	}
}

// schemaArgs returns the property names of a JSON object schema, sorted,
// required ones suffixed with *.
func schemaArgs(schema json.RawMessage) []string {
	var sc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(schema, &sc) != nil {
		return nil
	}
	req := map[string]bool{}
	for _, r := range sc.Required {
		req[r] = true
	}
	out := make([]string, 0, len(sc.Properties))
	for p := range sc.Properties {
		if req[p] {
			p += "*"
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
