// Command lspmain serves the skillscript language server on stdin/stdout.
// It exists for the editor tests, which need a server binary even in a
// checkout whose CLI does not wire `skillc lsp` yet.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/skillscript/skillc/lsp"
)

func main() {
	home, _ := os.UserHomeDir()
	err := lsp.Serve(context.Background(), lsp.StdioConn(os.Stdin, os.Stdout), lsp.Options{
		Log: os.Stderr, Env: os.LookupEnv, Home: home,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "lspmain:", err)
		os.Exit(1)
	}
}
