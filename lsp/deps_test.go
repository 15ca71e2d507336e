package lsp

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLSPLinksNoMCPClient keeps the language server off the MCP SDK and
// the substrates (issue 15, decision W5): it reads the tool cache through
// eval/toolcache, and skillc lsp injects the MCP client for the
// warm-up (WarmWith).
func TestLSPLinksNoMCPClient(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "list", "-deps", "github.com/skillscript/skillc/lsp").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/modelcontextprotocol/", "github.com/skillscript/skillc/eval/substrate/", "modernc.org/"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("lsp depends on %s", dep)
			}
		}
	}
}
