package serve

import (
	"cmp"
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
)

// metrics are the host's Prometheus collectors, on a registry of their
// own (no global state).
type metrics struct {
	reg       *prometheus.Registry
	runs      *prometheus.CounterVec
	runDur    *prometheus.HistogramVec
	inflight  prometheus.Gauge
	toolCalls *prometheus.CounterVec
	toolDur   *prometheus.HistogramVec
	events    *prometheus.CounterVec
	fires     *prometheus.CounterVec
	eventDups prometheus.Counter
	refused   *prometheus.CounterVec // requests refused by the listener's defences, by reason
	limits    *prometheus.GaugeVec   // the configured limits
}

func newMetrics(h *Host) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_runs_total", Help: "Skill runs by trigger kind and status (ok, failed, refused).",
		}, []string{"trigger", "status"}),
		runDur: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "skillc_run_duration_seconds", Help: "Wall-clock duration of skill runs.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10),
		}, []string{"trigger"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "skillc_runs_in_flight", Help: "Runs currently executing.",
		}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_mcp_tool_calls_total", Help: "MCP tool calls by tool and outcome (ok, error, invalid_params).",
		}, []string{"tool", "outcome"}),
		toolDur: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "skillc_mcp_tool_duration_seconds", Help: "MCP tool call latency.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"tool"}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_event_requests_total", Help: "POST /event requests by HTTP status code.",
		}, []string{"code"}),
		fires: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_trigger_fires_total", Help: "Trigger fires run by kind (cron, event), retries included.",
		}, []string{"kind"}),
		eventDups: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "skillc_event_idempotent_replays_total", Help: "POST /event requests whose Idempotency-Key matched an earlier fire (no new job).",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_http_refused_total",
			Help: "Requests refused by the listener's defences: host, origin, content_type, session_cap, rate_limit_event, rate_limit_register_trigger.",
		}, []string{"reason"}),
		limits: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "skillc_http_limit", Help: "The host's configured HTTP limits (0: none) by setting.",
		}, []string{"setting"}),
	}
	hs := h.set.HTTP
	for k, v := range map[string]float64{
		"read_timeout_seconds": hs.ReadTimeout.Seconds(), "idle_timeout_seconds": hs.IdleTimeout.Seconds(),
		"mcp_max_sessions": float64(hs.MaxSessions), "mcp_session_idle_seconds": hs.SessionIdle.Seconds(),
		"event_rate_per_second": hs.EventRate, "event_burst": float64(hs.EventBurst),
		"register_trigger_rate_per_second": hs.TriggerRegisterRate, "register_trigger_burst": float64(hs.TriggerRegisterBurst),
		"max_body_bytes": float64(cmp.Or(h.set.MaxBody, DefaultMaxBody)),
	} {
		m.limits.WithLabelValues(k).Set(v)
	}
	m.reg.MustRegister(m.refused, m.limits, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "skillc_mcp_sessions", Help: "Open (initialized) MCP sessions over Streamable HTTP.",
	}, func() float64 {
		if c := h.sessions.Load(); c != nil {
			return float64(c.open())
		}
		return 0
	}))
	m.reg.MustRegister(m.runs, m.runDur, m.inflight, m.toolCalls, m.toolDur, m.events, m.fires, m.eventDups,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_queue_workers", Help: "Fires this host runs at once (--workers).",
		}, func() float64 { return float64(h.set.Workers) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_queue_max_depth", Help: "Unfinished fires past which /event answers 429 (--max-queue-depth; 0: no limit).",
		}, func() float64 { return float64(h.set.MaxQueueDepth) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_queue_fetch_poll_seconds", Help: "How often idle workers look for queued fires (--fetch-poll-interval).",
		}, func() float64 { return h.set.FetchPoll.Seconds() }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_queue_depth", Help: "Fires queued, retrying or running, of every host sharing the queue (-1: unknown).",
		}, h.queueDepth),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_uptime_seconds", Help: "Seconds since the host started.",
		}, func() float64 { return h.now().Sub(h.started).Seconds() }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_client_approval", Help: "1 when any MCP client can approve skills (unsecured mode with skill writes), else 0.",
		}, func() float64 { return boolGauge(h.ClientApproval()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_operator_identity_configured", Help: "1 when an operator identity (SKILLSCRIPT_OPERATOR_IDENTITY) acts as the operator over MCP, else 0.",
		}, func() float64 { return boolGauge(h.set.IdentityHeader != "" && h.set.OperatorIdentity != "") }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_otel_enabled", Help: "1 when OpenTelemetry spans are exported (--otel-endpoint or OTEL_EXPORTER_OTLP_ENDPOINT), else 0.",
		}, func() float64 { return boolGauge(h.tel != nil) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_skill_store_shared", Help: "1 when the skill store is a cluster's shared Postgres store (--skill-store), else 0.",
		}, func() float64 {
			_, shared := h.Skills().(*skillstore.Postgres)
			return boolGauge(shared)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_gateway_vectors_persisted", Help: "1 when the skill gateway's semantic stage persists skill vectors in the index cache directory (--index-cache), so a restart embeds only new and edited skills, else 0.",
		}, func() float64 { return boolGauge(h.vecFile != "") }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "skillc_skills_scan_truncated_roots", Help: "Agent Skills roots whose last scan stopped at the directory limit (--max-scan-dirs); skills below them are missing.",
		}, func() float64 {
			if h.skills == nil {
				return 0
			}
			return float64(len(h.skills.Registry().Truncated()))
		}))
	return m
}

// handler serves the registry in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// observe counts one finished (or refused) run.
// The log line carries the trace id and the skill; the host is on every
// line of the host's logger (cmd/skillc adds it).
func (h *Host) observe(req RunRequest, id string, res *eval.Result, d time.Duration) {
	status := "refused"
	if res != nil {
		status = res.Status
	}
	trig := req.Trigger
	if trig == "" {
		trig = "unknown"
	}
	h.metrics.runs.WithLabelValues(trig, status).Inc()
	h.metrics.runDur.WithLabelValues(trig).Observe(d.Seconds())
	h.log.Info("run finished", "trace_id", id, "skill", req.Name, "trigger", trig, "status", status, "duration_ms", d.Milliseconds(), "caller", req.Caller)
}

// queueDepth reads the queue depth for /metrics; -1 when unknown.
func (h *Host) queueDepth() float64 {
	if h.triggers == nil {
		return -1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, err := h.triggers.QueueDepth(ctx)
	if err != nil {
		return -1
	}
	return float64(n)
}

// countFire counts a trigger fire of kind that a worker runs.
func (h *Host) countFire(kind string) { h.metrics.fires.WithLabelValues(kind).Inc() }

func boolGauge(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
