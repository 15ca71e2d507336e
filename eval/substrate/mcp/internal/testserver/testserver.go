// Package testserver is a small real MCP server used by the connector
// tests: it runs in process behind httptest and as a child process over
// stdio (see cmd/mcptestserver).
package testserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// IdentityHeader is the header the HTTP tests use for caller identity.
const IdentityHeader = "X-Agent-Id"

type echoIn struct {
	Text string `json:"text" jsonschema:"text to echo"`
}

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type addOut struct {
	Sum float64 `json:"sum"`
}

type emptyIn struct{}

type failIn struct {
	Message string `json:"message,omitempty"`
}

// Stats records what the HTTP handler saw.
type Stats struct {
	mu         sync.Mutex
	Sessions   int            // sessions created
	Identities map[string]int // initialize count per identity header value
}

// Snapshot returns a copy of the counters.
func (s *Stats) Snapshot() (int, map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := map[string]int{}
	for k, v := range s.Identities {
		ids[k] = v
	}
	return s.Sessions, ids
}

// New returns the test server with its tools: echo, add, json_text,
// fail, hang, crash, whoami and slow_echo.
func New() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "skillc-testserver", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo text back"}, echo)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "add two numbers (structured output)"}, add)
	mcp.AddTool(s, &mcp.Tool{Name: "json_text", Description: "return JSON as text content"}, jsonText)
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "return an isError result"}, fail)
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "never return until cancelled"}, hang)
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "exit the process mid-call"}, crash)
	mcp.AddTool(s, &mcp.Tool{Name: "whoami", Description: "report the identity header"}, whoami)
	return s
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
}

func add(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
	return nil, addOut{Sum: in.A + in.B}, nil
}

func jsonText(_ context.Context, _ *mcp.CallToolRequest, _ emptyIn) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"ok": true, "items": [1, 2]}`}}}, nil, nil
}

func fail(_ context.Context, _ *mcp.CallToolRequest, in failIn) (*mcp.CallToolResult, any, error) {
	msg := in.Message
	if msg == "" {
		msg = "boom"
	}
	return nil, nil, errors.New(msg)
}

func hang(ctx context.Context, _ *mcp.CallToolRequest, _ emptyIn) (*mcp.CallToolResult, any, error) {
	select {
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	case <-time.After(time.Hour):
		return nil, nil, nil
	}
}

func crash(context.Context, *mcp.CallToolRequest, emptyIn) (*mcp.CallToolResult, any, error) {
	os.Exit(3)
	return nil, nil, nil
}

func whoami(_ context.Context, req *mcp.CallToolRequest, _ emptyIn) (*mcp.CallToolResult, any, error) {
	id := ""
	if req.Extra != nil && req.Extra.Header != nil {
		id = req.Extra.Header.Get(IdentityHeader)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: id}}}, nil, nil
}

// Handler returns a Streamable HTTP handler for the server that counts,
// per identity header value, the initialize requests (one per session).
func Handler(stats *Stats) http.Handler {
	srv := New()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && isInitialize(r) {
			stats.mu.Lock()
			stats.Sessions++
			if stats.Identities == nil {
				stats.Identities = map[string]int{}
			}
			stats.Identities[r.Header.Get(IdentityHeader)]++
			stats.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

// isInitialize reports whether r carries an initialize request, restoring
// the body for the real handler.
func isInitialize(r *http.Request) bool {
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	return err == nil && bytes.Contains(body, []byte(`"method":"initialize"`))
}
