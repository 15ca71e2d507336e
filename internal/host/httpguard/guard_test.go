package httpguard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// guarded serves a handler that counts what reaches it behind g (and
// RequireJSON for /json) on a real listener.
func guarded(t *testing.T, g *Guard) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var reached atomic.Int32
	mux := http.NewServeMux()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		io.WriteString(w, "ran")
	})
	mux.Handle("/json", g.RequireJSON(ok))
	mux.Handle("/form", g.RequireForm(ok))
	mux.Handle("/", ok)
	ts := httptest.NewServer(g.Wrap(mux))
	t.Cleanup(ts.Close)
	return ts, &reached
}

func send(t *testing.T, method, url string, hdr map[string]string, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestGuardRefusesCrossSiteAndRebinding performs the browser attacks over
// HTTP: a DNS-rebinding Host, a cross-site Origin, a text/plain "simple"
// POST to a JSON endpoint and to a form endpoint. Each is refused before
// the handler runs; the server's own origin and a configured one pass, and
// only the configured one gets CORS headers.
func TestGuardRefusesCrossSiteAndRebinding(t *testing.T) {
	var reasons []string
	var mu sync.Mutex
	g := &Guard{Hosts: []string{"skillc.internal"}, Origins: []string{"https://ops.example"}, OnRefuse: func(r string) {
		mu.Lock()
		reasons = append(reasons, r)
		mu.Unlock()
	}}
	ts, reached := guarded(t, g)
	self := ts.URL // http://127.0.0.1:port
	hostPort := strings.TrimPrefix(self, "http://")
	_, port, _ := net.SplitHostPort(hostPort)
	json := map[string]string{"Content-Type": "application/json"}
	for _, tc := range []struct {
		name   string
		method string
		path   string
		hdr    map[string]string
		body   string
		want   int
	}{
		{"rebinding Host", "GET", "/", map[string]string{"Host": "evil.example:" + port}, "", 403},
		{"rebinding Host, JSON POST", "POST", "/json", map[string]string{"Host": "evil.example", "Content-Type": "application/json"}, `{}`, 403},
		{"foreign address as Host", "GET", "/", map[string]string{"Host": "10.1.2.3:" + port}, "", 403},
		{"cross-site text/plain POST", "POST", "/json", map[string]string{"Origin": "http://evil.example", "Content-Type": "text/plain"}, `{}`, 403},
		{"cross-site JSON POST", "POST", "/json", map[string]string{"Origin": "http://evil.example", "Content-Type": "application/json"}, `{}`, 403},
		{"Origin: null", "POST", "/json", map[string]string{"Origin": "null", "Content-Type": "application/json"}, `{}`, 403},
		{"Origin: null from a sandboxed frame", "POST", "/form", map[string]string{"Origin": "null", "Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded"}, `a=1`, 403},
		{"same host, other port", "POST", "/json", map[string]string{"Origin": "http://127.0.0.1:1", "Content-Type": "application/json"}, `{}`, 403},
		{"text/plain without Origin", "POST", "/json", map[string]string{"Content-Type": "text/plain"}, `{}`, 415},
		{"form to a JSON endpoint", "POST", "/json", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, `a=1`, 415},
		{"text/plain to a form endpoint", "POST", "/form", map[string]string{"Content-Type": "text/plain"}, `a=1`, 415},
		{"cross-site form post", "POST", "/form", map[string]string{"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, `a=1`, 403},
		{"cross-site preflight", "OPTIONS", "/json", map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}, "", 403},
	} {
		resp := send(t, tc.method, self+tc.path, tc.hdr, tc.body)
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
		if resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: CORS header %q", tc.name, resp.Header.Get("Access-Control-Allow-Origin"))
		}
		if resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: Referrer-Policy %q", tc.name, resp.Header.Get("Referrer-Policy"))
		}
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("%d refused requests reached the handler", n)
	}
	mu.Lock()
	if got := strings.Join(reasons, ","); got != "host,host,host,origin,origin,origin,origin,origin,content_type,content_type,content_type,origin,origin" {
		t.Errorf("refusal reasons %s", got)
	}
	mu.Unlock()

	for _, tc := range []struct {
		name string
		hdr  map[string]string
		cors string
	}{
		{"own origin", map[string]string{"Origin": self, "Content-Type": "application/json"}, ""},
		{"no Origin (not a browser)", json, ""},
		{"localhost", map[string]string{"Host": "localhost:" + port, "Origin": "http://localhost:" + port, "Content-Type": "application/json"}, ""},
		{"[::1]", map[string]string{"Host": "[::1]:" + port, "Content-Type": "application/json"}, ""},
		{"configured public name", map[string]string{"Host": "SKILLC.internal:" + port, "Origin": "https://skillc.internal:" + port, "Content-Type": "application/json"}, ""},
		{"own form under no-referrer (Origin: null, same-origin)", map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}, ""},
		{"configured origin", map[string]string{"Origin": "https://ops.example", "Content-Type": "application/json; charset=utf-8"}, "https://ops.example"},
	} {
		resp := send(t, "POST", self+"/json", tc.hdr, `{}`)
		if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != tc.cors {
			t.Errorf("%s: %d, CORS %q", tc.name, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	if resp := send(t, "OPTIONS", self+"/json", map[string]string{"Origin": "https://ops.example", "Access-Control-Request-Method": "POST"}, ""); resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Methods") == "" {
		t.Errorf("configured origin's preflight: %d %v", resp.StatusCode, resp.Header)
	}
}

// TestBearerScheme: only "Authorization: Bearer <token>" carries a token.
func TestBearerScheme(t *testing.T) {
	for hdr, want := range map[string]bool{
		"Bearer tok": true, "bearer tok": true, "Bearer  tok ": true,
		"tok": false, "Token tok": false, "Basic tok": false, "Bearer": false, "Bearer ": false, "Bearertok": false, "Bearer tok2": false,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", hdr)
		if got := BearerOK(r, "tok"); got != want {
			t.Errorf("Authorization: %q = %v, want %v", hdr, got, want)
		}
	}
}

// TestSlowBodyConnectionsDropped opens real connections that send their
// headers and then trickle (or stall) the body: each is answered and
// closed once the read timeout passes, so none is held. A request whose
// body arrived keeps its connection and its context for an answer that
// takes longer than the read timeout.
func TestSlowBodyConnectionsDropped(t *testing.T) {
	const readTimeout = 300 * time.Millisecond
	var cut atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/upload", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			cut.Add(1)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		io.WriteString(w, "got it")
	})
	mux.HandleFunc("/long", func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select { // answer after several read timeouts, unless the request was cancelled
		case <-time.After(4 * readTimeout):
			io.WriteString(w, "done")
		case <-r.Context().Done():
			http.Error(w, "cancelled", http.StatusInternalServerError)
		}
	})
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = NewServer(mux, Timeouts{Read: readTimeout, Idle: time.Minute})
	ts.Start()
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")

	const conns = 20
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /upload HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"a\":", addr)
			if i%2 == 0 { // trickle a byte now and then; the rest stall
				go func() {
					for range 20 {
						time.Sleep(readTimeout / 4)
						if _, err := c.Write([]byte(" ")); err != nil {
							return
						}
					}
				}()
			}
			// the server must answer and close; the deadline only ends a hung test
			c.SetReadDeadline(time.Now().Add(30 * time.Second))
			rest, err := io.ReadAll(c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				errs <- fmt.Errorf("connection %d still open: %q", i, rest)
				return
			}
			if !strings.Contains(string(rest), "400 Bad Request") || !strings.Contains(string(rest), "read timeout") {
				errs <- fmt.Errorf("connection %d answered %q", i, rest)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := cut.Load(); n != conns {
		t.Errorf("%d of %d slow bodies cut", n, conns)
	}

	// a complete body, a slow answer: the deadline was lifted at the body's end
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /long HTTP/1.1\r\nHost: %s\r\nContent-Length: 2\r\n\r\n{}", addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "done" {
		t.Errorf("long answer after a complete body: %d %q", resp.StatusCode, body)
	}
}
