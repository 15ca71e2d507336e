package skillcli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a command's flags in front of its positional
// arguments so that "skillc run FILE --var K=V" works like
// "skillc run --var K=V FILE" (urfave/cli stops at the first positional).
// Arguments after "--" are left alone.
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil || cmd.SkipFlagParsing {
		// a command that parses its own arguments (skillc's shims of the
		// skillc-host commands) gets them as they were given
		return args
	}
	head := 2
	if len(cmd.Subcommands) > 0 {
		// one level of subcommands: "skillc skills attach ID --target-type run"
		if len(args) < 4 {
			return args
		}
		if cmd = cmd.Command(args[2]); cmd == nil || len(cmd.Subcommands) > 0 {
			return args
		}
		head = 3
	}
	var flags, pos []string
	rest := args[head:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			pos = append(pos, rest[i:]...)
			i = len(rest)
		case a == "-" || !strings.HasPrefix(a, "-"):
			pos = append(pos, a)
		default:
			flags = append(flags, a)
			if takesValue(cmd, a) && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
		}
	}
	out := append(append([]string(nil), args[:head]...), flags...)
	return append(out, pos...)
}

// takesValue reports whether the flag argument a ("--name" or "-n", without
// "=value") names a flag of cmd that consumes the next argument.
func takesValue(cmd *cli.Command, a string) bool {
	if strings.Contains(a, "=") {
		return false
	}
	name := strings.TrimLeft(a, "-")
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if _, isBool := f.(*cli.BoolFlag); isBool {
				return false
			}
			return true
		}
	}
	return name != "help" && name != "h"
}
