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

type searchIn struct {
	Query string `json:"query" jsonschema:"what to look for"`
	Limit int    `json:"limit,omitempty" jsonschema:"maximum items"`
}

// searchOut is the typed result of search: the SDK derives the tool's
// outputSchema from it (the language's types from tool schemas are
// tested against it).
type searchOut struct {
	Total int          `json:"total" jsonschema:"matches in all"`
	Items []searchItem `json:"items" jsonschema:"the matches, best first"`
}

type searchItem struct {
	ID     int      `json:"id" jsonschema:"issue number"`
	Title  string   `json:"title" jsonschema:"one-line summary"`
	Labels []string `json:"labels,omitempty"`
}

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
// fail, hang, crash, whoami and search.
func New() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "skillc-testserver", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo text back"}, echo)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "add two numbers (structured output)"}, add)
	mcp.AddTool(s, &mcp.Tool{Name: "json_text", Description: "return JSON as text content"}, jsonText)
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "return an isError result"}, fail)
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "never return until cancelled"}, hang)
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "exit the process mid-call"}, crash)
	mcp.AddTool(s, &mcp.Tool{Name: "whoami", Description: "report the identity header"}, whoami)
	mcp.AddTool(s, &mcp.Tool{Name: "search", Description: "search issues (typed structured output)"}, search)
	return s
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
}

func add(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
	return nil, addOut{Sum: in.A + in.B}, nil
}

func search(_ context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, searchOut, error) {
	items := []searchItem{{ID: 7, Title: "first " + in.Query, Labels: []string{"bug"}}, {ID: 9, Title: "second " + in.Query}}
	if in.Limit > 0 && in.Limit < len(items) {
		items = items[:in.Limit]
	}
	return nil, searchOut{Total: len(items), Items: items}, nil
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
