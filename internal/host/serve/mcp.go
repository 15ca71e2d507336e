package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/eval"
)

// call is the per-request context a tool handler sees.
type call struct {
	// caller is the agent id from the identity header, or "".
	caller string
	// session keys per-session state (active Agent Skills): "mcp:" plus
	// the MCP session id.
	session string
}

// toolSet registers the host's tools on one MCP server and validates
// their arguments.
type toolSet struct {
	h   *Host
	srv *mcp.Server
	// mu guards schemas and names, which change when the Agent Skills
	// tools are re-registered with a new name enum.
	mu      sync.RWMutex
	schemas map[string]*jsonschema.Resolved
	names   []string
	err     error
	// skillsGen is the registry generation the Agent Skills tools and
	// skill:// resources were last registered for (see syncSkills).
	skillsMu  sync.Mutex
	skillsGen uint64
	skillURIs []string
}

// NewMCPServer returns an MCP server exposing the host's tools. The same
// server backs the Streamable HTTP handler and the stdio transport.
func (h *Host) NewMCPServer() (*mcp.Server, error) {
	ts, err := newToolSet(h)
	if err != nil {
		return nil, err
	}
	return ts.srv, nil
}

// newToolSet builds the MCP server with every tool and the validating
// middleware.
func newToolSet(h *Host) (*toolSet, error) {
	opts := &mcp.ServerOptions{Instructions: "Run, author and inspect skillscript skills. Call help for an overview."}
	if h.skills != nil {
		opts.Capabilities = sep2640Capabilities()
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "skillc", Title: "skillscript runtime (skillc serve)", Version: h.version}, opts)
	ts := &toolSet{h: h, srv: srv, schemas: map[string]*jsonschema.Resolved{}}
	ts.register()
	if ts.err == nil && h.skills != nil {
		ts.err = ts.registerSEP2640()
	}
	if ts.err != nil {
		return nil, ts.err
	}
	srv.AddReceivingMiddleware(ts.middleware)
	return ts, nil
}

// addTool registers one typed tool: its input and output schemas come from
// In and Out. The handler's *Error becomes an isError result; a
// *jsonrpc.Error (bad params) a protocol error.
func addTool[In, Out any](ts *toolSet, name, desc string, fn func(context.Context, *call, In) (Out, error)) {
	addToolSchema(ts, name, desc, nil, fn)
}

// addToolSchema is addTool with a hook that adjusts the generated input
// schema (the Agent Skills tools add a name enum). Registering a name
// again replaces the tool and its validation schema.
func addToolSchema[In, Out any](ts *toolSet, name, desc string, adjust func(*jsonschema.Schema), fn func(context.Context, *call, In) (Out, error)) {
	schema, err := jsonschema.For[In](schemaOptions())
	if err == nil && adjust != nil {
		adjust(schema)
	}
	var resolved *jsonschema.Resolved
	if err == nil {
		resolved, err = schema.Resolve(nil)
	}
	var outSchema *jsonschema.Schema
	if err == nil {
		outSchema, err = jsonschema.For[Out](schemaOptions())
	}
	if err != nil {
		ts.err = errors.Join(ts.err, fmt.Errorf("tool %s: schema: %w", name, err))
		return
	}
	ts.mu.Lock()
	ts.schemas[name] = resolved
	if !slices.Contains(ts.names, name) {
		ts.names = append(ts.names, name)
	}
	ts.mu.Unlock()
	mcp.AddTool(ts.srv, &mcp.Tool{Name: name, Description: desc, InputSchema: schema, OutputSchema: outSchema},
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			out, err := fn(ctx, &call{caller: ts.h.callerOf(req), session: sessionOf(req)}, in)
			return nil, out, err
		})
}

// schemaOptions describes the recursive eval.ErrorInfo (nested child
// errors) as a plain object.
func schemaOptions() *jsonschema.ForOptions {
	return &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[eval.ErrorInfo](): {Type: "object", Description: "a run error: kind, message, target, op, range, nested"},
	}}
}

func sessionOf(req *mcp.CallToolRequest) string {
	if req == nil {
		return "mcp:"
	}
	return sessionKey(req.Session)
}

// sessionKey is the skills session of an MCP session: "mcp:" plus its id.
func sessionKey(ss *mcp.ServerSession) string {
	if ss == nil {
		return "mcp:"
	}
	return "mcp:" + ss.ID()
}

// callerOf reads the configured identity header; an empty value is
// absent.
func (h *Host) callerOf(req *mcp.CallToolRequest) string {
	if h.set.IdentityHeader == "" || req == nil || req.Extra == nil || req.Extra.Header == nil {
		return ""
	}
	return strings.TrimSpace(req.Extra.Header.Get(h.set.IdentityHeader))
}

// middleware validates tools/call arguments against the tool's schema
// (a -32602 error naming the field), rewrites tool errors into their typed
// JSON form and counts calls.
func (ts *toolSet) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				ts.h.log.Error("mcp handler panic", "method", method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}
			}
		}()
		ts.syncSkills()
		ctr, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || ctr.Params == nil {
			return next(ctx, method, req)
		}
		name, start := ctr.Params.Name, time.Now()
		if err := ts.validate(name, ctr.Params.Arguments); err != nil {
			ts.h.metrics.toolCalls.WithLabelValues(name, "invalid_params").Inc()
			return nil, err
		}
		res, err = next(ctx, method, req)
		ts.h.metrics.toolDur.WithLabelValues(name).Observe(time.Since(start).Seconds())
		ts.h.metrics.toolCalls.WithLabelValues(name, outcome(res, err)).Inc()
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			typedError(r)
		}
		return res, err
	}
}

func outcome(res mcp.Result, err error) string {
	var we *jsonrpc.Error
	switch r, _ := res.(*mcp.CallToolResult); {
	case errors.As(err, &we) && we.Code == jsonrpc.CodeInvalidParams:
		return "invalid_params"
	case err != nil, r != nil && r.IsError:
		return "error"
	}
	return "ok"
}

// validate checks raw arguments against the tool's input schema.
func (ts *toolSet) validate(name string, raw json.RawMessage) error {
	ts.mu.RLock()
	rs, ok := ts.schemas[name]
	ts.mu.RUnlock()
	if !ok {
		return nil // unknown tool: the SDK reports it
	}
	var args any = map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return invalidParams("arguments: %v", err)
		}
	}
	if _, isObj := args.(map[string]any); !isObj {
		return invalidParams("arguments: want a JSON object")
	}
	if err := rs.Validate(args); err != nil {
		return invalidParams("%s", schemaMessage(err))
	}
	return nil
}

// schemaMessage shortens a jsonschema validation error to the failing
// field and reason.
func schemaMessage(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "validating root: ")
	msg = strings.ReplaceAll(msg, "validating /properties/", "field ")
	return msg
}

// invalidParams is a JSON-RPC -32602 error.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + fmt.Sprintf(format, args...)}
}

// errorBody is the JSON text of an isError result.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

// typedError rewrites an isError result's text into {"error": name,
// "message": ..., "details": ...}.
func typedError(r *mcp.CallToolResult) {
	err := r.GetError()
	if err == nil {
		return
	}
	body := errorBody{Error: ErrInternal, Message: err.Error()}
	var he *Error
	if errors.As(err, &he) {
		body = errorBody{Error: he.Name, Message: he.Message, Details: he.Details}
	}
	b, _ := json.Marshal(body)
	r.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
}
