package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
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

// sessionCap refuses (503 with Retry-After) an MCP initialize request
// while MaxSessions initialized sessions are open or opening. Sessions
// close when the client deletes them or after SessionIdle without a
// request. Other requests without a session id (which the SDK serves with
// a session of that request's lifetime) are bounded by the request.
type sessionCap struct {
	srv     *mcp.Server
	max     int
	mu      sync.Mutex
	opening int // initialize requests being served
}

// open counts the server's initialized sessions.
func (c *sessionCap) open() int {
	n := 0
	for ss := range c.srv.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	return n
}

func (h *Host) capSessions(c *sessionCap, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c.max <= 0 || r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body) // capped by limit, bounded by the read timeout
		if err != nil {
			code := http.StatusBadRequest
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				code = http.StatusRequestEntityTooLarge
			}
			writeJSON(w, code, errorBody{Error: "BadRequest", Message: "request body: " + err.Error()})
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !isInitialize(body) {
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
		// The request stops counting as "opening" once its answer starts:
		// by then the session is in srv.Sessions(), and a streamed answer
		// may keep the handler running long after (counting it twice
		// refused a second client under load).
		ow := &openingWriter{ResponseWriter: w, done: func() {
			c.mu.Lock()
			c.opening--
			c.mu.Unlock()
		}}
		defer ow.finish()
		next.ServeHTTP(ow, r)
	})
}

// openingWriter calls done once, when the answer starts or the handler
// returns, whichever is first.
type openingWriter struct {
	http.ResponseWriter
	done func()
	once sync.Once
}

func (w *openingWriter) finish() { w.once.Do(w.done) }

// WriteHeader ends the opening before the header goes out.
func (w *openingWriter) WriteHeader(code int) {
	w.finish()
	w.ResponseWriter.WriteHeader(code)
}

// Write ends the opening before the first bytes go out.
func (w *openingWriter) Write(b []byte) (int, error) {
	w.finish()
	return w.ResponseWriter.Write(b)
}

// Flush passes flushes through for streamed answers.
func (w *openingWriter) Flush() {
	w.finish()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *openingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// isInitialize reports whether a JSON-RPC body (a message or a batch)
// holds an initialize request.
func isInitialize(body []byte) bool {
	type msg struct {
		Method string `json:"method"`
	}
	var one msg
	if json.Unmarshal(body, &one) == nil {
		return one.Method == "initialize"
	}
	var batch []msg
	if json.Unmarshal(body, &batch) == nil {
		for _, m := range batch {
			if m.Method == "initialize" {
				return true
			}
		}
	}
	return false
}
