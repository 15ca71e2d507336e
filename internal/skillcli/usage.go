package skillcli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// usageError turns a flag-parsing error into one line on stderr and exit
// status 2; urfave/cli would otherwise print the whole help to stdout,
// which corrupts machine-readable output piped from the command.
func usageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = fmt.Sprintf("unknown flag --%s", strings.TrimPrefix(name, "-"))
		if c != nil && c.Command != nil {
			var names []string
			for _, f := range c.Command.Flags {
				names = append(names, f.Names()...)
			}
			if s := Suggest(strings.TrimPrefix(name, "-"), names); len(s) > 0 {
				msg += fmt.Sprintf("; did you mean --%s?", s[0])
			}
		}
	}
	return cli.Exit(msg+" (see --help)", ExitUsage)
}

// setUsageErrors installs usageError on every command and subcommand
// (urfave/cli only gives the root command the application's handler).
func setUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = usageError
		setUsageErrors(c.Subcommands)
	}
}

// unknownCommand returns the error message for a command line whose
// (sub)command does not exist, or "" when it names a known command or
// none at all.
func unknownCommand(app *cli.App, args []string) string {
	cmds := app.Commands
	path := app.Name
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") || len(cmds) == 0 {
			return ""
		}
		var found *cli.Command
		for _, c := range cmds {
			if c.HasName(a) {
				found = c
			}
		}
		if a == "help" || a == "h" {
			// "help TOPIC": the topic is a command path like any other
			// (an unknown one gets the same did-you-mean and exit 2)
			continue
		}
		if found == nil {
			var names []string
			for _, c := range cmds {
				if !c.Hidden {
					names = append(names, c.Name)
				}
			}
			msg := fmt.Sprintf("unknown command %q for %q", a, path)
			if s := Suggest(a, names); len(s) > 0 {
				return msg + "; did you mean " + strings.Join(s, " or ") + "?"
			}
			return msg + " (see " + app.Name + " --help)"
		}
		path += " " + found.Name
		cmds = found.Subcommands
	}
	return ""
}

// Suggest returns the candidates closest to name: those within a small
// edit distance (a third of the name's length, at least 2), else those
// containing name or contained in it; at most three, best first.
func Suggest(name string, candidates []string) []string {
	type scored struct {
		s string
		d int
	}
	limit := max(2, len(name)/3)
	var close []scored
	for _, c := range candidates {
		if d := editDistance(name, c); d <= limit {
			close = append(close, scored{c, d})
		}
	}
	if len(close) == 0 {
		for _, c := range candidates {
			if len(name) >= 3 && len(c) >= 3 && (strings.Contains(c, name) || strings.Contains(name, c)) {
				close = append(close, scored{c, 100 + abs(len(c)-len(name))})
			}
		}
	}
	sort.SliceStable(close, func(i, j int) bool {
		if close[i].d != close[j].d {
			return close[i].d < close[j].d
		}
		return close[i].s < close[j].s
	})
	var out []string
	seen := map[string]bool{}
	for _, c := range close {
		if !seen[c.s] && len(out) < 3 {
			seen[c.s] = true
			out = append(out, c.s)
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editDistance is the Damerau (optimal string alignment) distance of a
// and b: insertions, deletions, substitutions and adjacent transpositions.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
