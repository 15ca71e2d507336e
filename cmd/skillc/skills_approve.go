package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillscript/skillc/internal/host/skillrt"
)

// approveScriptsCommand is `skillc skills approve-scripts`: the operator's
// approval, by content digest, of the scripts of a package from the
// project root or an MCP server (skills_run_script refuses them until
// then; issue 22 item 5).
func approveScriptsCommand(s *streams, flags []cli.Flag) *cli.Command {
	return &cli.Command{
		Name:      "approve-scripts",
		Usage:     "let skills_run_script run the scripts of a package from the project root or an MCP server, as its content is now (any change revokes it)",
		ArgsUsage: "ORIGIN/NAME|NAME",
		Flags: slices.Concat(flags, []cli.Flag{
			&cli.StringFlag{Name: "digest", Usage: "the sha256:<hex> digest to approve: required for a package from an MCP server; for a local package it must equal the current digest"},
			&cli.BoolFlag{Name: "revoke", Usage: "remove the approval instead"},
			&cli.BoolFlag{Name: "list", Usage: "list the approvals"},
		}),
		Action: func(c *cli.Context) error { return skillsApproveScripts(c, s) },
	}
}

func skillsApproveScripts(c *cli.Context, s *streams) error {
	env, err := openRegistry(c, s)
	if err != nil {
		return err
	}
	if env.ws.Config.Home == "" {
		return cli.Exit("approve-scripts: no $SKILLSCRIPT_HOME (and no home directory) to keep the approvals in", exitUsage)
	}
	store := skillrt.NewScriptApprovals(filepath.Join(env.ws.Config.Home, skillrt.ScriptApprovalsFile))
	if c.Bool("list") {
		list, err := store.List()
		if err != nil {
			return err
		}
		if c.Bool("json") {
			return writeJSON(s, list)
		}
		for _, a := range list {
			fmt.Fprintf(s.out, "%-40s %s %s\n", a.ID, a.Digest, a.ApprovedAt.Format("2006-01-02T15:04:05Z"))
		}
		return nil
	}
	if c.NArg() != 1 {
		return cli.Exit("approve-scripts takes one skill: origin/name (or a name), e.g. project/pdf", exitUsage)
	}
	arg := c.Args().First()
	if c.Bool("revoke") {
		found, err := store.Revoke(arg)
		if err != nil {
			return err
		}
		if !found {
			return cli.Exit(fmt.Sprintf("approve-scripts: %s has no approval (see --list)", arg), exitFindings)
		}
		fmt.Fprintf(s.out, "revoked the script approval of %s\n", arg)
		return nil
	}
	id, digest, detail, err := approvalTarget(env, arg, c.String("digest"))
	if err != nil {
		return cli.Exit("approve-scripts: "+err.Error(), exitFindings)
	}
	if err := store.Approve(id, digest); err != nil {
		return cli.Exit("approve-scripts: "+err.Error(), exitFindings)
	}
	fmt.Fprintf(s.out, "approved the scripts of %s at %s%s; any change to the package revokes this\n", id, digest, detail)
	return nil
}

// approvalTarget resolves what to approve: a local package by name or id
// (its current digest, which --digest must equal when given), or an MCP
// package by id with --digest.
func approvalTarget(env *skillsEnv, arg, digest string) (id, dig, detail string, err error) {
	rec, ok := env.reg.Lookup(arg)
	if !ok {
		if strings.HasPrefix(arg, "mcp:") && strings.Contains(arg, "/") && digest != "" {
			return arg, digest, "", nil
		}
		return "", "", "", fmt.Errorf("unknown skill %q (a package from an MCP server needs its id mcp:<server>/<name> and --digest from the refusal); known: %s", arg, strings.Join(env.reg.Names(), ", "))
	}
	if !skillrt.NeedsScriptApproval(rec.Origin) {
		return "", "", "", fmt.Errorf("%s comes from origin %s, whose scripts need no approval", rec.ID, rec.Origin)
	}
	if digest != "" && digest != rec.Digest {
		return "", "", "", fmt.Errorf("%s is now at %s, not %s: the package changed since that digest was shown; review it and approve the current content", rec.ID, rec.Digest, digest)
	}
	files := make([]string, 0, len(rec.Resources))
	for _, r := range rec.Resources {
		files = append(files, r.Path)
	}
	return rec.ID, rec.Digest, fmt.Sprintf(" (%d files: %s)", len(files), strings.Join(limitFiles(files, 12), ", ")), nil
}

func limitFiles(files []string, n int) []string {
	if len(files) <= n {
		return files
	}
	return append(files[:n:n], fmt.Sprintf("and %d more", len(files)-n))
}
