package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/approval"
)

// rawReq is one HTTP request a test builds by hand (a browser's or an
// attacker's), sent with a fresh client that keeps no cookies.
type rawReq struct {
	method, path, body string
	hdr                map[string]string
}

// do sends r to base and returns the status, headers and body.
func (r rawReq) do(t testing.TB, base string) (int, http.Header, string) {
	t.Helper()
	return r.doWith(t, http.DefaultClient, base)
}

func (r rawReq) doWith(t testing.TB, c *http.Client, base string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(r.method, base+r.path, strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range r.hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

const mcpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// firesOf counts the recorded runs through a fresh MCP session.
func firesOf(t *testing.T, url string, headers map[string]string) int {
	t.Helper()
	cs := connect(t, url, headers)
	var fires struct{ Runs []map[string]any }
	callJSON(t, cs, "fires", map[string]any{}, &fires)
	cs.Close()
	return len(fires.Runs)
}

// TestServeRefusesCrossSiteAndRebinding attacks a real `skillc serve` in
// its default set-up (loopback, no token) the way a web page the operator
// visits can: cross-site "simple" text/plain POSTs to /gateway/run, /event
// and the dashboard's unlock form, cross-site JSON and form posts, MCP
// from a foreign Origin, and a DNS-rebinding Host on every route. All are
// refused before anything runs; the same requests from the host's own
// origin work.
func TestServeRefusesCrossSiteAndRebinding(t *testing.T) {
	home := t.TempDir()
	keys := filepath.Join(t.TempDir(), "keys")
	writeSkill(t, home, "mark", "# Skill: mark\n# Description: Marks the day.\n# Status: Approved\n# Classification: role=procedure invocation=direct effect_mode=read_only\n# Triggers: event: ping\n# Vars: WHO=\"nobody\"\n\nmarked by ${WHO}\n")
	// the operator's key pair: in-browser signing is wired (the unlock form is live)
	if _, err := approval.GenerateKeys(approval.KeyPaths{Private: keys + "/approval.key", Public: keys + "/approval.pub"}, false); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, home, []string{"HOME=" + t.TempDir(), "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true",
		"SKILLSCRIPT_APPROVAL_KEY_FILE=" + keys + "/approval.key", "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE=" + keys + "/approval.pub",
		"SKILLSCRIPT_APPROVAL_PASSCODE=open sesame"})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(p.url, "http://"))
	evil := "http://evil.example"
	run := `{"skill_id":"mark","inputs":{"WHO":"evil"}}`
	event := `{"event_name":"ping","params":{"WHO":"evil"}}`
	form := url.Values{"passcode": {"open sesame"}}.Encode()
	for _, tc := range []struct {
		name string
		r    rawReq
		want int
	}{
		{"cross-site text/plain POST /gateway/run", rawReq{"POST", "/gateway/run", run, map[string]string{"Origin": evil, "Content-Type": "text/plain"}}, 403},
		{"cross-site JSON POST /gateway/run", rawReq{"POST", "/gateway/run", run, map[string]string{"Origin": evil, "Content-Type": "application/json"}}, 403},
		{"text/plain POST /gateway/run", rawReq{"POST", "/gateway/run", run, map[string]string{"Content-Type": "text/plain"}}, 415},
		{"cross-site text/plain POST /event", rawReq{"POST", "/event", event, map[string]string{"Origin": evil, "Content-Type": "text/plain"}}, 403},
		{"text/plain POST /event", rawReq{"POST", "/event", event, map[string]string{"Content-Type": "text/plain"}}, 415},
		{"cross-site text/plain POST /dashboard/unlock", rawReq{"POST", "/dashboard/unlock", form, map[string]string{"Origin": evil, "Content-Type": "text/plain"}}, 403},
		{"cross-site form POST /dashboard/unlock", rawReq{"POST", "/dashboard/unlock", form, map[string]string{"Origin": evil, "Content-Type": "application/x-www-form-urlencoded"}}, 403},
		{"text/plain POST /dashboard/unlock", rawReq{"POST", "/dashboard/unlock", form, map[string]string{"Content-Type": "text/plain"}}, 415},
		{"MCP initialize from a foreign Origin", rawReq{"POST", "/mcp", mcpInit, map[string]string{"Origin": evil, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}}, 403},
		{"MCP preflight from a foreign Origin", rawReq{"OPTIONS", "/mcp", "", map[string]string{"Origin": evil, "Access-Control-Request-Method": "POST"}}, 403},
		{"rebinding: MCP initialize", rawReq{"POST", "/mcp", mcpInit, map[string]string{"Host": "evil.example:" + port, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}}, 403},
		{"rebinding: /gateway/run", rawReq{"POST", "/gateway/run", run, map[string]string{"Host": "evil.example:" + port, "Origin": "http://evil.example:" + port, "Content-Type": "application/json"}}, 403},
		{"rebinding: /gateway/openapi.json", rawReq{"GET", "/gateway/openapi.json", "", map[string]string{"Host": "evil.example"}}, 403},
		{"rebinding: /event", rawReq{"POST", "/event", event, map[string]string{"Host": "evil.example:" + port, "Content-Type": "application/json"}}, 403},
		{"rebinding: /dashboard/", rawReq{"GET", "/dashboard/", "", map[string]string{"Host": "evil.example:" + port}}, 403},
		{"rebinding: /dashboard/skills", rawReq{"GET", "/dashboard/skills", "", map[string]string{"Host": "evil.example:" + port}}, 403},
		{"rebinding: /metrics", rawReq{"GET", "/metrics", "", map[string]string{"Host": "evil.example:" + port}}, 403},
		{"rebinding: /healthz", rawReq{"GET", "/healthz", "", map[string]string{"Host": "evil.example:" + port}}, 403},
	} {
		code, h, body := tc.r.do(t, p.url)
		if code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, code, body, tc.want)
		}
		if strings.Contains(body, "marked by") || strings.Contains(body, "run_id") || strings.Contains(body, "skillc_runs_total") || strings.Contains(body, "<html") {
			t.Errorf("%s: answered with content: %.200s", tc.name, body)
		}
		for _, c := range h.Values("Set-Cookie") {
			if strings.HasPrefix(c, "skillc_session=") {
				t.Errorf("%s: unlocked a session: %s", tc.name, c)
			}
		}
		if h.Get("Access-Control-Allow-Origin") != "" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: CORS %q, Referrer-Policy %q", tc.name, h.Get("Access-Control-Allow-Origin"), h.Get("Referrer-Policy"))
		}
	}
	// nothing ran: no gateway run, no event fire (none was queued: no
	// answer carried a run_id)
	if n := firesOf(t, p.url, nil); n != 0 {
		t.Fatalf("%d runs recorded after the refused requests", n)
	}
	// the same requests from the host's own origin work
	self := map[string]string{"Origin": p.url, "Content-Type": "application/json"}
	if code, _, body := (rawReq{"POST", "/gateway/run", run, self}).do(t, p.url); code != 200 || !strings.Contains(body, "marked by evil") {
		t.Errorf("same-origin /gateway/run: %d %s", code, body)
	}
	if code, _, body := (rawReq{"POST", "/event", event, self}).do(t, p.url); code != 200 || !strings.Contains(body, "run_id") {
		t.Errorf("same-origin /event: %d %s", code, body)
	}
	if code, h, _ := (rawReq{"GET", "/dashboard/", "", map[string]string{"Host": "localhost:" + port}}).do(t, p.url); code != 200 || h.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("dashboard by localhost: %d, Referrer-Policy %q", code, h.Get("Referrer-Policy"))
	}
	if code, _, body := (rawReq{"GET", "/metrics", "", nil}).do(t, p.url); code != 200 || !strings.Contains(body, `skillc_http_refused_total{reason="host"} 8`) ||
		!strings.Contains(body, `skillc_http_refused_total{reason="origin"} 7`) || !strings.Contains(body, `skillc_http_refused_total{reason="content_type"} 3`) {
		t.Errorf("refusals in /metrics: %d\n%s", code, grepLines(body, "skillc_http_refused_total"))
	}
}

// grepLines returns the lines of s containing sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestServeLimits drives a real `skillc serve` with small limits: the
// MCP session cap refuses a new session until one is closed, the /event
// token bucket answers 429 with Retry-After (and unauthenticated posts do
// not use it up), register_trigger is rate-limited, a token without the
// Bearer scheme is refused everywhere, slow-body connections are closed
// after the read timeout, and /metrics shows the limits and the refusals.
func TestServeLimits(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "door", "# Skill: door\n# Status: Approved\n# Triggers: event: door\n\nopened\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true",
		"SKILLSCRIPT_EVENT_INGRESS_AUTH_TOKEN=etok", "SKILLSCRIPT_EVENT_RATE=0.001", "SKILLSCRIPT_EVENT_BURST=5"},
		"--max-sessions", "2", "--event-burst", "2", "--trigger-register-rate", "0.001", "--trigger-register-burst", "1", "--read-timeout", "500ms")
	auth := map[string]string{"Authorization": "Bearer tok"}

	// the token without the Bearer scheme is no token
	mcpHdr := map[string]string{"Authorization": "tok", "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	for _, r := range []rawReq{
		{"POST", "/mcp", mcpInit, mcpHdr},
		{"POST", "/gateway/list", `{}`, map[string]string{"Authorization": "tok", "Content-Type": "application/json"}},
		{"GET", "/dashboard/api/pending", "", map[string]string{"Authorization": "tok", "Accept": "application/json"}},
		{"GET", "/dashboard/api/pending", "", map[string]string{"Authorization": "Token tok", "Accept": "application/json"}},
		{"POST", "/event", `{"event_name":"door"}`, map[string]string{"Authorization": "etok", "Content-Type": "application/json"}},
	} {
		if code, h, body := r.do(t, p.url); code != http.StatusUnauthorized || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s %s with Authorization %q: %d %s", r.method, r.path, r.hdr["Authorization"], code, body)
		}
	}
	if code, _, _ := (rawReq{"GET", "/dashboard/api/pending", "", map[string]string{"Authorization": "Bearer tok", "Accept": "application/json"}}).do(t, p.url); code != 200 {
		t.Errorf("dashboard with Bearer: %d", code)
	}

	// the session cap
	cs1 := connect(t, p.url, auth)
	cs2 := connect(t, p.url, auth)
	initHdr := map[string]string{"Authorization": "Bearer tok", "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	code, h, body := (rawReq{"POST", "/mcp", mcpInit, initHdr}).do(t, p.url)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "TooManySessions") || h.Get("Retry-After") == "" {
		t.Fatalf("third session: %d %s", code, body)
	}
	// register_trigger: a burst of one
	var tr struct{ Error, Message string }
	if res := callJSON(t, cs2, "register_trigger", map[string]any{"skill": "door", "kind": "cron", "schedule": "0 9 * * *"}, &tr); res.IsError {
		t.Fatalf("first register_trigger: %+v", tr)
	}
	var limited struct {
		Error   string
		Details struct {
			RetryAfter int `json:"retry_after_seconds"`
		}
	}
	if res := callJSON(t, cs2, "register_trigger", map[string]any{"skill": "door", "kind": "cron", "schedule": "0 10 * * *"}, &limited); !res.IsError || limited.Error != "RateLimited" || limited.Details.RetryAfter < 1 {
		t.Errorf("second register_trigger: %+v", limited)
	}
	cs1.Close() // DELETE ends the session (the server forgets it a moment later): a new one fits
	waitFor(t, func() bool {
		_, _, m := (rawReq{"GET", "/metrics", "", nil}).do(t, p.url)
		return strings.Contains(m, "\nskillc_mcp_sessions 1\n")
	})
	cs3 := connect(t, p.url, auth)

	// /event: wrong-token posts do not use the bucket; the burst of two does
	for range 5 {
		if code, _ := post(t, p.url, "wrong", `{"event_name":"door"}`); code != http.StatusUnauthorized {
			t.Fatalf("wrong token: %d", code)
		}
	}
	for i := range 2 {
		if code, body := post(t, p.url, "etok", `{"event_name":"door"}`); code != 200 {
			t.Fatalf("event %d: %d %v", i, code, body)
		}
	}
	code, h, body = (rawReq{"POST", "/event", `{"event_name":"door"}`, map[string]string{"Authorization": "Bearer etok", "Content-Type": "application/json"}}).do(t, p.url)
	if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" || h.Get("Retry-After") == "0" {
		t.Errorf("event over the limit: %d Retry-After %q %s", code, h.Get("Retry-After"), body)
	}

	code, _, body = (rawReq{"GET", "/metrics", "", nil}).do(t, p.url)
	for _, want := range []string{
		`skillc_http_refused_total{reason="session_cap"} 1`, `skillc_http_refused_total{reason="rate_limit_event"} 1`,
		`skillc_http_refused_total{reason="rate_limit_register_trigger"} 1`, `skillc_event_requests_total{code="429"} 1`,
		`skillc_http_limit{setting="mcp_max_sessions"} 2`, `skillc_http_limit{setting="event_burst"} 2`,
		`skillc_http_limit{setting="event_rate_per_second"} 0.001`, `skillc_http_limit{setting="read_timeout_seconds"} 0.5`,
		`skillc_http_limit{setting="register_trigger_burst"} 1`, `skillc_mcp_sessions 2`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics (%d) lacks %s:\n%s", code, want, grepLines(body, "skillc_http_")+"\n"+grepLines(body, "skillc_mcp_sessions"))
		}
	}
	// slow bodies, the sessions closed first so the two slow /mcp posts
	// fit under the cap and have their bodies read: every connection is
	// answered and closed after the read timeout
	cs2.Close()
	cs3.Close()
	waitFor(t, func() bool {
		_, _, m := (rawReq{"GET", "/metrics", "", nil}).do(t, p.url)
		return strings.Contains(m, "\nskillc_mcp_sessions 0\n")
	})
	addr := strings.TrimPrefix(p.url, "http://")
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			path := []string{"/mcp", "/gateway/run", "/dashboard/unlock", "/healthz", "/gateway/attach"}[i%5]
			ctype := "application/json"
			if path == "/dashboard/unlock" {
				ctype = "application/x-www-form-urlencoded"
			}
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer tok\r\nAccept: application/json, text/event-stream\r\nContent-Type: %s\r\nContent-Length: 100000\r\n\r\n{\"a\":", path, addr, ctype)
			c.SetReadDeadline(time.Now().Add(30 * time.Second)) // ends a hung test only
			rest, err := io.ReadAll(c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				errs <- fmt.Errorf("slow body to %s: connection still open after 30s: %q", path, rest)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestServeSessionIdleExpiry: with the cap reached, a session that sends
// nothing for --session-idle is closed, and a new client gets in.
func TestServeSessionIdleExpiry(t *testing.T) {
	p := startServe(t, t.TempDir(), nil, "--max-sessions", "1", "--session-idle", "1s")
	idle := connect(t, p.url, nil)
	hdr := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	if code, _, body := (rawReq{"POST", "/mcp", mcpInit, hdr}).do(t, p.url); code != http.StatusServiceUnavailable {
		t.Fatalf("second session while the first is open: %d %s", code, body)
	}
	waitFor(t, func() bool {
		code, _, _ := (rawReq{"POST", "/mcp", mcpInit, hdr}).do(t, p.url)
		return code == http.StatusOK
	})
	if _, err := idle.ListTools(context.Background(), nil); err == nil {
		t.Error("the expired session still answers")
	}
}

// TestDashboardCommandBind: `skillc dashboard` makes the bind check of
// `skillc serve`: every spelling of a non-loopback address is refused
// without SKILLSCRIPT_DASHBOARD_AUTH_TOKEN (exit 2, naming it) and
// listens with it; loopback spellings listen without it.
func TestDashboardCommandBind(t *testing.T) {
	base := append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=")
	for _, host := range []string{"0.0.0.0", "", "::", "[::]", "::ffff:0.0.0.0", "0", "0.0.0.0:7878", "192.0.2.10"} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, "skillc", "dashboard", "--host", host, "--port", "0")
		cmd.Env = base
		out, err := cmd.CombinedOutput()
		cancel()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(string(out), "refusing to listen on non-loopback address") ||
			!strings.Contains(string(out), "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN") || strings.Contains(string(out), "skillc dashboard: http://") {
			t.Errorf("--host %q without a token: %v\n%s", host, err, out)
		}
	}
	for _, tc := range []struct{ host, token string }{{"127.0.0.1", ""}, {"::1", ""}, {"localhost", ""}, {"127.0.0.2", ""}, {"0.0.0.0", "tok"}} {
		u, stop := startDashboardArgs(t, append(base, "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN="+tc.token), "--host", tc.host)
		stop()
		if u == "" {
			t.Errorf("--host %q (token %q) did not listen", tc.host, tc.token)
		}
	}
}

// startDashboardArgs is startDashboard with extra flags; it returns ""
// when the process exits without listening.
func startDashboardArgs(t *testing.T, env []string, args ...string) (string, func()) {
	t.Helper()
	cmd := exec.Command("skillc", append([]string{"dashboard", "--port", "0"}, args...)...)
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urlc, exited := make(chan string, 1), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "skillc dashboard: "); ok {
				urlc <- strings.TrimSuffix(u, "/")
			}
		}
		_ = cmd.Wait()
		close(exited)
	}()
	stop := func() { _ = cmd.Process.Kill(); <-exited }
	select {
	case u := <-urlc:
		return u, stop
	case <-exited:
		t.Logf("skillc dashboard %q exited: %s", args, stderr.String())
		return "", func() {}
	case <-time.After(20 * time.Second):
		stop()
		t.Fatalf("skillc dashboard %q did not start", args)
	}
	return "", nil
}

// TestDashboardCommandGuards attacks a real standalone `skillc dashboard`
// (secured mode, a passcode, a token): a rebinding Host and a cross-site
// form post are refused, the token without the Bearer scheme is 401, and
// wrong passcodes pause unlocking for the address that sent them only:
// another client address still unlocks with the right passcode.
func TestDashboardCommandGuards(t *testing.T) {
	home := t.TempDir()
	keys := filepath.Join(t.TempDir(), "keys")
	writeSkill(t, home, "fx", "# Skill: fx\n# Status: Draft\n\nrun:\n    emit(text=\"x\")\ndefault: run\n")
	u, stop := startDashboardArgs(t, append(os.Environ(), "SKILLSCRIPT_HOME="+home, "SKILLSCRIPT_SECURED_MODE=true",
		"SKILLSCRIPT_APPROVAL_KEY_FILE="+keys+"/approval.key", "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE="+keys+"/approval.pub",
		"SKILLSCRIPT_APPROVAL_PASSCODE=open sesame", "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok"))
	defer stop()
	if u == "" {
		t.Fatal("skillc dashboard did not start")
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(u, "http://"))
	pass := func(code string) string { return url.Values{"passcode": {code}}.Encode() }
	formHdr := func(extra ...string) map[string]string {
		h := map[string]string{"Authorization": "Bearer tok", "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}
		for i := 0; i+1 < len(extra); i += 2 {
			h[extra[i]] = extra[i+1]
		}
		return h
	}
	for _, tc := range []struct {
		name string
		r    rawReq
		want int
	}{
		{"rebinding Host", rawReq{"GET", "/api/pending", "", map[string]string{"Host": "evil.example:" + port, "Authorization": "Bearer tok"}}, 403},
		{"cross-site form post", rawReq{"POST", "/unlock", pass("open sesame"), formHdr("Origin", "http://evil.example")}, 403},
		{"cross-site text/plain post", rawReq{"POST", "/unlock", pass("open sesame"), formHdr("Origin", "http://evil.example", "Content-Type", "text/plain")}, 403},
		{"token without Bearer", rawReq{"GET", "/api/pending", "", map[string]string{"Authorization": "tok", "Accept": "application/json"}}, 401},
		{"no token", rawReq{"GET", "/", "", nil}, 401},
	} {
		code, h, body := tc.r.do(t, u)
		if code != tc.want || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: %d (Referrer-Policy %q) %s, want %d", tc.name, code, h.Get("Referrer-Policy"), body, tc.want)
		}
	}
	// five wrong passcodes from 127.0.0.1 pause that address ...
	for i := range 5 {
		if code, _, body := (rawReq{"POST", "/unlock", pass("guess"), formHdr()}).do(t, u); code != http.StatusUnauthorized {
			t.Fatalf("wrong passcode %d: %d %s", i, code, body)
		}
	}
	code, h, body := (rawReq{"POST", "/unlock", pass("open sesame"), formHdr()}).do(t, u)
	if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Fatalf("right passcode from the paused address: %d %s", code, body)
	}
	// ... and not the operator at another address
	other := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext}}
	code, h, body = (rawReq{"POST", "/unlock", pass("open sesame"), formHdr()}).doWith(t, other, u)
	if code != http.StatusOK || !strings.Contains(strings.Join(h.Values("Set-Cookie"), ";"), "skillc_session=") {
		t.Fatalf("right passcode from another address: %d %s", code, body)
	}
	var msg map[string]string
	_ = json.Unmarshal([]byte(body), &msg)
	if !strings.Contains(msg["message"], "unlocked") {
		t.Errorf("unlock answer: %s", body)
	}
}
