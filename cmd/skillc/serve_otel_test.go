package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an OTLP/HTTP trace receiver: it decodes each protobuf
// export request and keeps the raw bodies (to look for secrets).
type otlpReceiver struct {
	mu    sync.Mutex
	raw   [][]byte
	spans []*tracepb.Span
	res   []*commonpb.KeyValue
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want POST /v1/traces application/x-protobuf", http.StatusBadRequest)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	o.raw = append(o.raw, b)
	for _, rs := range req.ResourceSpans {
		o.res = append(o.res, rs.GetResource().GetAttributes()...)
		for _, ss := range rs.ScopeSpans {
			o.spans = append(o.spans, ss.Spans...)
		}
	}
	o.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func attr(s *tracepb.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			if v, ok := kv.Value.Value.(*commonpb.AnyValue_StringValue); ok {
				return v.StringValue
			}
		}
	}
	return ""
}

// otelEchoServer is an MCP server over stdio: echo returns its text,
// fail returns it as a tool error.
const otelEchoServer = `import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if "id" not in req:
        continue
    m = req.get("method")
    if m == "initialize":
        res = {"protocolVersion": req["params"].get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}}, "serverInfo": {"name": "t", "version": "1"}}
    elif m == "tools/list":
        schema = {"type": "object", "properties": {"text": {"type": "string"}}}
        res = {"tools": [{"name": "echo", "inputSchema": schema}, {"name": "fail", "inputSchema": schema}]}
    elif m == "tools/call":
        text = req["params"]["arguments"].get("text", "")
        res = {"content": [{"type": "text", "text": "refused: " + text}], "isError": req["params"]["name"] == "fail"}
    else:
        res = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": res}) + "\n")
    sys.stdout.flush()
`

// 28.obs: with --otel-endpoint the host exports a span per run, a child
// per op and, under a connector op, a span of the connector call, to a
// real OTLP/HTTP receiver (protobuf decoded); a secret passed to the
// connector appears in no exported byte, and the failing call's error is
// redacted. Without an endpoint nothing is exported.
func TestServeOpenTelemetrySpans(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	recv := &otlpReceiver{}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	const secret = "s3cr3t-otel-value"
	home, dir := t.TempDir(), t.TempDir()
	writePackage(t, dir, map[string]string{
		"srv.py":     otelEchoServer,
		"conns.json": `{ "srv": { "class": "RemoteMcpConnector", "config": { "command": "python3", "args": ["-S", "` + dir + `/srv.py"], "framing": "newline" } } }`,
	})
	writeSkill(t, home, "traced", "# Skill: traced\n# Status: Approved\n# Requires: secret.OTEL_TOKEN\n\nrun:\n    $ srv.echo text=\"{{secret.OTEL_TOKEN}}\" -> R\n"+
		"    $ srv.fail text=\"{{secret.OTEL_TOKEN}}\" -> F (fallback: \"none\")\n    emit(text=\"done\")\ndefault: run\n")
	env := []string{"SKILLSCRIPT_SECRET_OTEL_TOKEN=" + secret}
	p := startServe(t, home, env, "--connectors", dir+"/conns.json", "--otel-endpoint", srv.URL)
	cs := connect(t, p.url, nil)
	var ex struct {
		TraceID        string `json:"trace_id"`
		Status, Output string
		Errors         []map[string]any
	}
	callJSON(t, cs, "execute_skill", map[string]any{"name": "traced"}, &ex)
	if ex.Status != "ok" {
		t.Fatalf("execute_skill = %+v\n%s", ex, p.stderr)
	}
	if m := metricsText(t, p.url); !strings.Contains(m, "skillc_otel_enabled 1") {
		t.Errorf("/metrics lacks skillc_otel_enabled 1")
	}
	if err := p.stop(t); err != nil { // flushes the batch
		t.Errorf("exit after SIGTERM: %v\n%s", err, p.stderr)
	}
	recv.mu.Lock()
	defer recv.mu.Unlock()
	for _, b := range recv.raw {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("an exported span carries the secret value")
		}
	}
	var run *tracepb.Span
	ops := map[string]*tracepb.Span{}
	var conns []*tracepb.Span
	for _, s := range recv.spans {
		switch s.Name {
		case "skillc.run":
			run = s
		case "skillc.op":
			ops[attr(s, "skillc.op")] = s
		case "skillc.connector":
			conns = append(conns, s)
		}
	}
	if run == nil {
		t.Fatalf("no skillc.run span among %d exported", len(recv.spans))
	}
	if attr(run, "skillc.skill") != "traced" || attr(run, "skillc.trace_id") != ex.TraceID || attr(run, "skillc.status") != "ok" || attr(run, "skillc.trigger") != "agent" {
		t.Errorf("run span attributes = %v", run.Attributes)
	}
	for _, name := range []string{"$ srv.echo", "$ srv.fail", "emit"} {
		op := ops[name]
		if op == nil {
			t.Errorf("no op span for %s (ops %v)", name, keys(ops))
			continue
		}
		if !bytes.Equal(op.ParentSpanId, run.SpanId) || !bytes.Equal(op.TraceId, run.TraceId) {
			t.Errorf("op span %s is not a child of the run span", name)
		}
	}
	if f := ops["$ srv.fail"]; f != nil && (attr(f, "skillc.outcome") != "fallback" || f.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR) {
		t.Errorf("op span of the failing call: outcome %q, status %v", attr(f, "skillc.outcome"), f.Status)
	}
	if len(conns) != 2 {
		t.Fatalf("connector spans = %d, want 2", len(conns))
	}
	for _, c := range conns {
		tool := attr(c, "skillc.tool")
		op := ops["$ srv."+tool]
		if attr(c, "skillc.connector") != "srv" || op == nil || !bytes.Equal(c.ParentSpanId, op.SpanId) {
			t.Errorf("connector span %v is not the call of its op", c.Attributes)
		}
		if tool == "fail" && (c.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || !strings.Contains(c.Status.GetMessage(), "[REDACTED]")) {
			t.Errorf("failing connector call's status = %v, want an error with the secret redacted", c.Status)
		}
	}
	hostName := ""
	for _, kv := range recv.res {
		if kv.Key == "host.name" {
			hostName = kv.Value.GetStringValue()
		}
	}
	if !strings.HasSuffix(hostName, ":"+home) {
		t.Errorf("resource host.name = %q, want the host label", hostName)
	}

	// off by default: the same run without an endpoint exports nothing
	before := len(recv.raw)
	recv.mu.Unlock()
	p2 := startServe(t, home, env, "--connectors", dir+"/conns.json")
	callJSON(t, connect(t, p2.url, nil), "execute_skill", map[string]any{"name": "traced"}, &ex)
	_ = p2.stop(t)
	recv.mu.Lock()
	if len(recv.raw) != before {
		t.Errorf("a host without --otel-endpoint exported %d requests", len(recv.raw)-before)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
