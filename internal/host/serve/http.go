package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/httpguard"
)

// Handler returns the host's HTTP routes: /mcp (and /rpc, the same MCP
// endpoint under the reference runtime's path), /event, /healthz, /readyz
// and /metrics, /gateway/ and the extra routes. Every route is behind
// the guard (Host, Origin, security headers) and the body cap; the JSON
// routes require application/json and the dashboard form posts a form
// type.
func (h *Host) Handler(srv *mcp.Server) http.Handler {
	hs := h.set.HTTP
	idle := hs.SessionIdle
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	g := h.guard()
	mux := http.NewServeMux()
	mcpH := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Logger: h.log, SessionTimeout: idle})
	sc := &sessionCap{srv: srv, max: hs.MaxSessions}
	h.sessions.Store(sc)
	guarded := g.RequireJSON(h.bearer(h.set.AuthToken, h.capSessions(sc, mcpH)))
	mux.Handle("/mcp", guarded)
	mux.Handle("/rpc", guarded)
	mux.Handle("/event", g.RequireJSON(h.eventLimit(http.HandlerFunc(h.serveEvent))))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("/readyz", h.serveReady)
	mux.Handle("/metrics", h.metrics.handler())
	if h.gw != nil {
		mux.Handle("/gateway/", g.RequireJSON(h.bearer(h.set.AuthToken, h.withHeaderCaller(gateway.Handler(h.gw, h.version)))))
	}
	for pattern, route := range h.routes {
		mux.Handle(pattern, g.RequireForm(route))
	}
	return g.Wrap(h.limit(mux))
}

// guard is the request guard of the host's listener: the configured
// public names and origins, refusals counted in /metrics.
func (h *Host) guard() *httpguard.Guard {
	return &httpguard.Guard{Hosts: h.set.HTTP.AllowedHosts, Origins: h.set.HTTP.AllowedOrigins,
		OnRefuse: func(reason string) { h.metrics.refused.WithLabelValues(reason).Inc() }}
}

// limit caps request bodies at MaxBody.
func (h *Host) limit(next http.Handler) http.Handler {
	max := h.set.MaxBody
	if max <= 0 {
		max = DefaultMaxBody
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{Error: "RequestTooLarge", Message: "request body exceeds the host's limit"})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}

// bearer requires "Authorization: Bearer <token>" when token is set,
// compared in constant time.
func (h *Host) bearer(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !tokenOK(r, token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="skillc"`)
			writeJSON(w, http.StatusUnauthorized, errorBody{Error: "Unauthorized", Message: "missing or wrong bearer token"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// tokenOK reports whether r carries "Authorization: Bearer <token>".
func tokenOK(r *http.Request, token string) bool { return httpguard.BearerOK(r, token) }

// readyProbeTimeout bounds each /readyz probe, so that a hung database
// answers 503 rather than hanging the probe.
const readyProbeTimeout = 2 * time.Second

// queueHealth is what a trigger service reports to /readyz.
type queueHealth interface {
	// Ready is nil when the queue can take and run fires.
	Ready(ctx context.Context) error
}

// serveReady reports 503 while draining or when the trace store or the
// queue is unreachable (each probe bounded by readyProbeTimeout).
func (h *Host) serveReady(w http.ResponseWriter, r *http.Request) {
	checks := map[string]string{}
	ok := true
	if h.Draining() {
		checks["host"], ok = "draining", false
	} else {
		checks["host"] = "ok"
	}
	probe := func(name string, f func(context.Context) error) {
		ctx, cancel := context.WithTimeout(r.Context(), readyProbeTimeout)
		defer cancel()
		if err := f(ctx); err != nil {
			checks[name], ok = err.Error(), false
		} else {
			checks[name] = "ok"
		}
	}
	if h.traces != nil {
		probe("traces", h.traces.Ping)
	}
	if q, isQ := h.triggers.(queueHealth); isQ {
		probe("queue", q.Ready)
	}
	if h.Skills() == nil {
		checks["skill_store"] = "not configured"
	} else {
		checks["skill_store"] = "ok"
	}
	code := http.StatusOK
	if !ok {
		code = http.StatusServiceUnavailable
	}
	writeJSON(w, code, map[string]any{"ready": ok, "checks": checks})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// Serve serves HTTP on ln until ctx is done, then shuts down: intake
// stops at once, in-flight runs get the grace period, the rest are cut
// off and recorded aborted.
func (h *Host) Serve(ctx context.Context, ln net.Listener, srv *mcp.Server) error {
	hs := httpguard.NewServer(h.Handler(srv), httpguard.Timeouts{Read: h.set.HTTP.ReadTimeout, Idle: h.set.HTTP.IdleTimeout})
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	h.log.Info("serving", "addr", ln.Addr().String(), "mcp", "/mcp", "event_ingress", h.set.EventIngress)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	h.Shutdown(hs)
	return nil
}

// Shutdown stops intake and drains in-flight runs, then closes hs (which
// may be nil for the stdio transport).
func (h *Host) Shutdown(hs *http.Server) {
	h.log.Info("shutting down", "grace", h.set.Grace.String(), "in_flight", h.InFlight())
	h.mu.Lock()
	h.draining = true
	h.mu.Unlock()
	sctx, cancel := context.WithTimeout(context.Background(), h.set.Grace)
	defer cancel()
	if hs != nil {
		go func() { _ = hs.Shutdown(sctx) }()
	}
	if st, ok := h.triggers.(interface{ Stop(context.Context) error }); ok {
		// stop fetching fires; running ones finish within the grace period
		if err := st.Stop(sctx); err != nil {
			h.log.Warn("stopping triggers", "err", err)
		}
	}
	dl, _ := sctx.Deadline()
	h.Drain(max(time.Until(dl), 0))
	if hs != nil {
		if err := hs.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			h.log.Warn("closing http server", "err", err)
		}
	}
}
