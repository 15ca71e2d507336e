// Command mcptestserver runs the skillc MCP test server over stdio.
//
//	mcptestserver [-framing newline|lsp] [-no-init]
//
// -no-init reads stdin forever without answering, modelling a server that
// never completes the initialize handshake.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/eval/substrate/mcp/internal/lspframe"
	"github.com/skillscript/skillc/eval/substrate/mcp/internal/testserver"
)

func main() {
	framing := flag.String("framing", "newline", "stdio framing: newline or lsp")
	noInit := flag.Bool("no-init", false, "never answer (simulates a hung server)")
	flag.Parse()
	if *noInit {
		io.Copy(io.Discard, os.Stdin)
		return
	}
	var t mcp.Transport = &mcp.StdioTransport{}
	if *framing == "lsp" {
		t = &lspframe.Transport{Reader: os.Stdin, Writer: os.Stdout}
	}
	if err := testserver.New().Run(context.Background(), t); err != nil {
		fmt.Fprintln(os.Stderr, "mcptestserver:", err)
		os.Exit(1)
	}
}
