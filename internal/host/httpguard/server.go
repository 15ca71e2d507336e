package httpguard

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"
)

// Defaults of the listener timeouts.
const (
	DefaultReadTimeout = 30 * time.Second  // headers and body of one request
	DefaultIdleTimeout = 120 * time.Second // a kept-alive connection between requests
	maxHeaderTimeout   = 10 * time.Second
	maxHeaderBytes     = 64 << 10
)

// Timeouts bound how long a client may hold a connection without
// completing a request.
type Timeouts struct {
	// Read bounds the headers (at most 10 s) and, from the moment the
	// handler starts, the body of each request; zero means
	// DefaultReadTimeout.
	Read time.Duration
	// Idle bounds a kept-alive connection between requests; zero means
	// DefaultIdleTimeout.
	Idle time.Duration
}

func (t Timeouts) read() time.Duration {
	if t.Read <= 0 {
		return DefaultReadTimeout
	}
	return t.Read
}

func (t Timeouts) idle() time.Duration {
	if t.Idle <= 0 {
		return DefaultIdleTimeout
	}
	return t.Idle
}

// NewServer returns the http.Server of a listener: header, idle and body
// read deadlines and a header size cap. It sets no WriteTimeout, which
// would cut off a long run streaming its answer (an MCP tool call, an SSE
// stream).
func NewServer(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{
		Handler:           BodyDeadline(t.read(), h),
		ReadHeaderTimeout: min(t.read(), maxHeaderTimeout),
		IdleTimeout:       t.idle(),
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// BodyDeadline gives a request's body d to arrive from the moment its
// handler starts: a client that trickles it (or sends less than its
// Content-Length) gets a read error that says so, and the connection is
// closed. Once the body is read to its end, net/http lifts the deadline
// (it starts its background read), so a long answer is not cut off.
// Requests without a body are not touched.
func BodyDeadline(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
			next.ServeHTTP(w, r) // not a net/http connection (a test recorder)
			return
		}
		r.Body = deadlineBody{r.Body}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody names the error of a body cut off by the deadline.
type deadlineBody struct{ io.ReadCloser }

func (b deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = errBodyTimeout
	}
	return n, err
}

var errBodyTimeout = errors.New("request body not received within the read timeout")
