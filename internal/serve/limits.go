package serve

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"
)

// ErrRateLimited is the tool error of a call refused by a rate limit; its
// details carry retry_after_seconds.
const ErrRateLimited = "RateLimited"

// bucket is a token-bucket rate limit (golang.org/x/time/rate); a nil
// bucket lets everything through.
type bucket struct {
	name string
	lim  *rate.Limiter
}

// newBucket returns the limit of perSecond with burst, or nil when
// perSecond is 0 (no limit).
func newBucket(name string, perSecond float64, burst int) *bucket {
	if perSecond <= 0 {
		return nil
	}
	return &bucket{name: name, lim: rate.NewLimiter(rate.Limit(perSecond), max(burst, 1))}
}

// take takes a token, or reports how long until one is free.
func (b *bucket) take() (bool, time.Duration) {
	if b == nil {
		return true, 0
	}
	now := time.Now()
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, time.Second
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// retryAfter is d in whole seconds, at least 1 (the Retry-After header).
func retryAfter(d time.Duration) int { return max(1, int(math.Ceil(d.Seconds()))) }

// allowTrigger takes a register_trigger token; a refusal is a RateLimited
// tool error.
func (h *Host) allowTrigger() error {
	ok, wait := h.triggerBucket.take()
	if ok {
		return nil
	}
	h.metrics.refused.WithLabelValues(h.triggerBucket.name).Inc()
	return &Error{Name: ErrRateLimited, Message: "too many register_trigger calls: retry in " + strconv.Itoa(retryAfter(wait)) + "s",
		Details: map[string]int{"retry_after_seconds": retryAfter(wait)}}
}

// eventLimit rate-limits POST /event in front of its handler. Only a
// request the handler would act on takes a token (ingress on, POST, the
// right token when one is set), so unauthenticated noise cannot starve
// the event senders; a refusal is 429 with Retry-After.
func (h *Host) eventLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		counts := h.set.EventIngress && h.triggers != nil && r.Method == http.MethodPost &&
			(h.set.EventToken == "" || tokenOK(r, h.set.EventToken))
		if counts {
			if ok, wait := h.eventBucket.take(); !ok {
				h.metrics.refused.WithLabelValues(h.eventBucket.name).Inc()
				h.metrics.events.WithLabelValues(strconv.Itoa(http.StatusTooManyRequests)).Inc()
				w.Header().Set("Retry-After", strconv.Itoa(retryAfter(wait)))
				writeJSON(w, http.StatusTooManyRequests, errorBody{Error: "TooManyRequests",
					Message: "event rate limit reached (" + EnvEventRate + "): retry after " + strconv.Itoa(retryAfter(wait)) + "s"})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// sessionCap refuses (503 with Retry-After) a request that would open an
// MCP session while MaxSessions are open. Sessions close when the client
// deletes them or after SessionIdle without a request.
type sessionCap struct {
	srv     *mcp.Server
	max     int
	mu      sync.Mutex
	opening int // session-opening requests being served
}

// open counts the server's sessions.
func (c *sessionCap) open() int {
	n := 0
	for range c.srv.Sessions() {
		n++
	}
	return n
}

func (h *Host) capSessions(c *sessionCap, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c.max <= 0 || r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			next.ServeHTTP(w, r)
			return
		}
		c.mu.Lock()
		if c.open()+c.opening >= c.max {
			c.mu.Unlock()
			h.metrics.refused.WithLabelValues("session_cap").Inc()
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter(time.Minute)))
			writeJSON(w, http.StatusServiceUnavailable, errorBody{Error: "TooManySessions",
				Message: "the host has " + strconv.Itoa(c.max) + " MCP sessions open (" + EnvMaxSessions + "): close one or retry later"})
			return
		}
		c.opening++
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			c.opening--
			c.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}
