// Package telemetry exports OpenTelemetry spans of the runtime host's
// runs over OTLP/HTTP: one span per run, a child per op, and a child of
// the op per connector call. It is off unless an endpoint is configured
// (skillc serve --otel-endpoint, else the standard
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT), and
// it records names, kinds, outcomes and timings only — never inputs,
// connector arguments or results — with error messages redacted against
// the provisioned secret values. The evaluator core does not link it.
package telemetry

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
)

// Span names.
const (
	SpanRun       = "skillc.run"
	SpanOp        = "skillc.op"
	SpanConnector = "skillc.connector"
)

// Options configure Open.
type Options struct {
	// Endpoint is the OTLP/HTTP base URL (http://collector:4318); the
	// traces path /v1/traces is added when it has no path. Empty falls
	// back to the environment (Getenv).
	Endpoint string
	// Getenv reads OTEL_SDK_DISABLED, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
	// and OTEL_EXPORTER_OTLP_ENDPOINT; nil reads none.
	Getenv func(string) string
	// Host names this host (resource attribute host.name).
	Host    string
	Version string
	// Secrets are values redacted from every exported string.
	Secrets []string
}

// Tracing is the host's span source. A nil *Tracing records nothing.
type Tracing struct {
	tp      *sdktrace.TracerProvider
	tr      oteltrace.Tracer
	secrets []string
	// Endpoint is the URL spans are exported to.
	Endpoint string
}

// Open returns the configured tracing, or nil when no endpoint is set or
// OTEL_SDK_DISABLED is true.
func Open(ctx context.Context, o Options) (*Tracing, error) {
	env := o.Getenv
	if env == nil {
		env = func(string) string { return "" }
	}
	if strings.EqualFold(env("OTEL_SDK_DISABLED"), "true") {
		return nil, nil
	}
	endpoint := o.Endpoint
	if endpoint == "" {
		if u := env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); u != "" {
			endpoint = u // a full URL, used as is
		} else if u := env("OTEL_EXPORTER_OTLP_ENDPOINT"); u != "" {
			endpoint = strings.TrimSuffix(u, "/") + "/v1/traces"
		}
	} else if u, err := url.Parse(endpoint); err == nil && (u.Path == "" || u.Path == "/") {
		endpoint = strings.TrimSuffix(endpoint, "/") + "/v1/traces"
	}
	if endpoint == "" {
		return nil, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("OpenTelemetry endpoint %q: want http(s)://host:port", endpoint)
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(endpoint))
	if err != nil {
		return nil, fmt.Errorf("OpenTelemetry exporter: %w", err)
	}
	res := resource.NewSchemaless(
		attribute.String("service.name", "skillc"),
		attribute.String("service.version", o.Version),
		attribute.String("host.name", o.Host),
	)
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(time.Second)), sdktrace.WithResource(res))
	return &Tracing{tp: tp, tr: tp.Tracer("github.com/skillscript/skillc"), secrets: o.Secrets, Endpoint: u.Redacted()}, nil
}

// Shutdown flushes the spans not exported yet and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.tp.Shutdown(ctx)
}

// redact replaces every secret value in s.
func (t *Tracing) redact(s string) string {
	for _, v := range t.secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "[REDACTED]")
		}
	}
	return s
}

// Run is the span of one run and of its open ops.
type Run struct {
	t    *Tracing
	ctx  context.Context // carries the run span
	span oteltrace.Span
	mu   sync.Mutex
	open []opSpan // per depth, the op span still running
	last opSpan   // the op most recently started
}

type opSpan struct {
	ctx  context.Context
	span oteltrace.Span
}

type runKey struct{}

// StartRun starts the span of run id of skill, fired by trigger. It
// returns ctx carrying the run (for connector spans) and the run, whose
// Hook goes in eval.Runner.Progress. A nil Tracing returns ctx and nil.
func (t *Tracing) StartRun(ctx context.Context, id, skill, trigger string) (context.Context, *Run) {
	if t == nil {
		return ctx, nil
	}
	ctx, span := t.tr.Start(ctx, SpanRun, oteltrace.WithSpanKind(oteltrace.SpanKindInternal), oteltrace.WithAttributes(
		attribute.String("skillc.trace_id", id), attribute.String("skillc.skill", skill), attribute.String("skillc.trigger", trigger)))
	r := &Run{t: t, ctx: ctx, span: span}
	return context.WithValue(ctx, runKey{}, r), r
}

// Hook turns the run's progress events into op spans: an op lasts from
// its "op" event to the next event at its depth or above; a "fallback" or
// "error" event marks it. It forwards every event to next when set.
func (r *Run) Hook(next func(eval.Event)) func(eval.Event) {
	if r == nil {
		return next
	}
	return func(ev eval.Event) {
		r.event(ev)
		if next != nil {
			next(ev)
		}
	}
}

func (r *Run) event(ev eval.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev.Kind {
	case "op":
		r.closeFrom(ev.Depth)
		parent := r.ctx
		for d := ev.Depth - 1; d >= 0; d-- {
			if d < len(r.open) && r.open[d].span != nil {
				parent = r.open[d].ctx
				break
			}
		}
		ctx, span := r.t.tr.Start(parent, SpanOp, oteltrace.WithAttributes(
			attribute.String("skillc.op", ev.Op), attribute.String("skillc.skill", ev.Skill),
			attribute.String("skillc.target", ev.Target), attribute.Int("skillc.line", ev.Line), attribute.Int("skillc.depth", ev.Depth)))
		for len(r.open) <= ev.Depth {
			r.open = append(r.open, opSpan{})
		}
		r.open[ev.Depth] = opSpan{ctx, span}
		r.last = r.open[ev.Depth]
	case "fallback", "error":
		if ev.Depth < len(r.open) && r.open[ev.Depth].span != nil {
			s := r.open[ev.Depth].span
			s.SetAttributes(attribute.String("skillc.outcome", ev.Kind))
			s.SetStatus(codes.Error, r.t.redact(ev.Detail))
		}
		r.closeFrom(ev.Depth)
	default:
		r.closeFrom(ev.Depth)
	}
}

// closeFrom ends the op spans at depth d and deeper.
func (r *Run) closeFrom(d int) {
	for i := len(r.open) - 1; i >= d && i >= 0; i-- {
		if r.open[i].span != nil {
			r.open[i].span.End()
			r.open[i] = opSpan{}
		}
	}
}

// End ends the run's open op spans and the run span with the run's
// status and first error (redacted).
func (r *Run) End(res *eval.Result) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.closeFrom(0)
	r.mu.Unlock()
	if res != nil {
		r.span.SetAttributes(attribute.String("skillc.status", res.Status))
		if len(res.Errors) > 0 {
			e := res.Errors[0]
			r.span.SetAttributes(attribute.String("skillc.error_kind", e.Kind))
			r.span.SetStatus(codes.Error, r.t.redact(e.Message))
		}
	}
	r.span.End()
}

// currentOp returns the context of the op most recently started, else
// the run's.
func (r *Run) currentOp() context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last.span != nil && r.last.span.IsRecording() {
		return r.last.ctx
	}
	return r.ctx
}

// Connector wraps c so that each Call made during a traced run is a span,
// child of the op that made it, named by connector and tool (never its
// arguments or result). A nil Tracing returns c.
func (t *Tracing) Connector(name string, c contract.Connector) contract.Connector {
	if t == nil || c == nil {
		return c
	}
	return &tracedConnector{Connector: c, t: t, name: name}
}

type tracedConnector struct {
	contract.Connector
	t    *Tracing
	name string
}

// Call implements contract.Connector.
func (c *tracedConnector) Call(ctx context.Context, tool string, args map[string]any) (any, error) {
	r, _ := ctx.Value(runKey{}).(*Run)
	if r == nil {
		return c.Connector.Call(ctx, tool, args)
	}
	_, span := c.t.tr.Start(r.currentOp(), SpanConnector, oteltrace.WithSpanKind(oteltrace.SpanKindClient), oteltrace.WithAttributes(
		attribute.String("skillc.connector", c.name), attribute.String("skillc.tool", tool)))
	defer span.End()
	v, err := c.Connector.Call(ctx, tool, args)
	if err != nil {
		span.SetStatus(codes.Error, c.t.redact(err.Error()))
	}
	return v, err
}
