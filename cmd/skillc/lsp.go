package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"

	"github.com/urfave/cli/v2"

	"github.com/skillscript/skillc/lsp"
)

// lspCommand is `skillc lsp`: the language server on stdin/stdout. Nothing
// but protocol frames is written to stdout; the log goes to stderr or to
// the --log file.
func lspCommand() *cli.Command {
	return &cli.Command{
		Name:  "lsp",
		Usage: "run the skillscript language server on stdin/stdout",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "stdio", Usage: "accepted for editor compatibility (stdio is the only transport)"},
			&cli.DurationFlag{Name: "debounce", Usage: "delay between the last edit and its full diagnostics (0: none; large files get the parser's findings at once)", Value: lsp.DefaultDebounce},
			&cli.DurationFlag{Name: "full-delay", Usage: "in large files, quiet time after the last edit before the whole-file analysis when edits inside one target are answered by the local lane (0: the whole analysis after every edit)", Value: lsp.DefaultFullDelay},
			&cli.StringFlag{Name: "log", Usage: "append the server log to this file instead of stderr"},
			&cli.StringFlag{Name: "cpuprofile", Hidden: true, EnvVars: []string{"SKILLC_LSP_CPUPROFILE"},
				Usage: "write a Go CPU profile of the whole session to this file (for measuring the server)"},
		},
		Action: func(c *cli.Context) error {
			var logw io.Writer = os.Stderr
			if path := c.String("log"); path != "" {
				f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					return cli.Exit(fmt.Sprintf("skillc lsp: %v", err), 2)
				}
				defer f.Close()
				logw = f
			}
			if path := c.String("cpuprofile"); path != "" {
				f, err := os.Create(path)
				if err != nil {
					return cli.Exit(fmt.Sprintf("skillc lsp: --cpuprofile: %v", err), 2)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return cli.Exit(fmt.Sprintf("skillc lsp: --cpuprofile: %v", err), 2)
				}
				defer pprof.StopCPUProfile()
			}
			// the server's collector policy (GOGC / GOMEMLIMIT set by the user win)
			defer lsp.TuneGC(os.LookupEnv)()
			home, _ := os.UserHomeDir()
			self, err := os.Executable()
			if err != nil {
				return cli.Exit(fmt.Sprintf("skillc lsp: cannot find its own binary for the run commands: %v", err), 1)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			debounce := c.Duration("debounce")
			if debounce == 0 {
				debounce = -1 // --debounce 0: none (Options' zero value is the default)
			}
			fullDelay := c.Duration("full-delay")
			if fullDelay <= 0 {
				fullDelay = -1 // --full-delay 0: no lane (Options' zero value is the default)
			}
			err = lsp.Serve(ctx, lsp.StdioConn(os.Stdin, os.Stdout), lsp.Options{
				Debounce:  debounce,
				FullDelay: fullDelay,
				Log:       logw,
				Env:       os.LookupEnv,
				Home:      home,
				// the background warm-up of skillc check's tool cache
				WarmTools: lsp.WarmWith(dialMCP),
				// skillc.run / skillc.test run this binary
				RunSkill: lsp.ExecRunner(self),
			})
			if err != nil {
				return cli.Exit(fmt.Sprintf("skillc lsp: %v", err), 1)
			}
			return nil
		},
	}
}
