package skillrt

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool registers one runtime method as an MCP tool the way a host
// does: typed input and output, the MCP session as the runtime session.
func addTool[In, Out any](srv *mcp.Server, name string, fn func(context.Context, string, In) (Out, error)) {
	mcp.AddTool(srv, &mcp.Tool{Name: name, Description: name},
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			out, err := fn(ctx, "mcp:"+req.Session.ID(), in)
			return nil, out, err
		})
}

// TestOverMCP registers the tools on a go-sdk server and drives them
// from a go-sdk client over in-memory transports: structured results
// come back, and a refusal is a tool error the model can read.
func TestOverMCP(t *testing.T) {
	rt, _ := fixture(t, Options{Scripts: ScriptOptions{Enabled: true, Approvals: NewScriptApprovals(filepath.Join(t.TempDir(), ScriptApprovalsFile))}})
	approve(t, rt, "project/pdf")
	srv := mcp.NewServer(&mcp.Implementation{Name: "skills-test", Version: "0"}, nil)
	addTool(srv, ToolLoad, func(_ context.Context, s string, in LoadInput) (LoadOutput, error) { return rt.Load(s, in) })
	addTool(srv, ToolUnload, func(_ context.Context, s string, in UnloadInput) (UnloadOutput, error) { return rt.Unload(s, in) })
	addTool(srv, ToolRead, func(_ context.Context, s string, in ReadInput) (ReadOutput, error) { return rt.Read(s, in) })
	addTool(srv, ToolRunScript, rt.RunScript)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) (*mcp.CallToolResult, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		return res, string(b)
	}
	if res, out := call(ToolLoad, map[string]any{"names": []string{"pdf"}}); res.IsError || !strings.Contains(out, `"root_dir"`) {
		t.Errorf("load: %v %s", res.IsError, out)
	}
	if res, out := call(ToolRead, map[string]any{"path": "references/guide.md"}); res.IsError || !strings.Contains(out, `"content":"the guide"`) {
		t.Errorf("read: %s", out)
	}
	if res, out := call(ToolRunScript, map[string]any{"path": "scripts/hello.py", "args": []string{"x"}}); res.IsError || !strings.Contains(out, `"exit_code":3`) {
		t.Errorf("run: %s", out)
	}
	res, _ := call(ToolRead, map[string]any{"path": "../../outside/secret.txt"})
	text := ""
	if len(res.Content) > 0 {
		text = res.Content[0].(*mcp.TextContent).Text
	}
	if !res.IsError || !strings.Contains(text, "leaves the skill root") {
		t.Errorf("escape over MCP: %v %q", res.IsError, text)
	}
	if res, out := call(ToolUnload, map[string]any{"all": true}); res.IsError || out != `{"active_skills":[]}` {
		t.Errorf("unload: %s", out)
	}
}
