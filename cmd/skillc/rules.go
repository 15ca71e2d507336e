package main

import (
	"fmt"
	"strings"

	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/urfave/cli/v2"
)

func rulesCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "rules",
		Usage: "list every lint rule with its severity and the context it needs",
		Action: func(c *cli.Context) error {
			return lint.FormatList(s.out, rulesets.All().Rules())
		},
	}
}

func explainCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "print the documentation of a lint rule",
		ArgsUsage: "RULE-ID",
		BashComplete: func(c *cli.Context) {
			for _, r := range rulesets.All().Rules() {
				fmt.Fprintln(s.out, r.ID)
			}
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cli.Exit("explain takes one rule id (see skillc rules)", exitUsage)
			}
			id := c.Args().First()
			r := rulesets.All().Lookup(id)
			if r == nil {
				return cli.Exit(fmt.Sprintf("unknown rule %q%s", id, ruleSuggestion(id)), exitUsage)
			}
			return lint.FormatDoc(s.out, r)
		},
	}
}

// ruleSuggestion returns "; did you mean X?" for the rule ids closest to id.
func ruleSuggestion(id string) string {
	var ids []string
	for _, r := range rulesets.All().Rules() {
		ids = append(ids, r.ID)
	}
	close := skillcli.Suggest(id, ids)
	if len(close) == 0 {
		return " (see skillc rules)"
	}
	return "; did you mean " + strings.Join(close, " or ") + "?"
}

// ruleMetas describes every rule for SARIF output.
func ruleMetas() []render.RuleMeta {
	var out []render.RuleMeta
	for _, r := range rulesets.All().Rules() {
		out = append(out, render.RuleMeta{ID: r.ID, Severity: r.Severity, Short: r.Doc.Summary, HelpURI: lint.DocURL(r.ID)})
	}
	return out
}
