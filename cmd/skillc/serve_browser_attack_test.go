package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserCrossSiteAttack is the attack of a web page the operator
// visits, in Debian's chromium, against a real `skillc serve` in its
// default set-up (loopback, no token, event ingress on): the page at
// http://evil.example (resolved to 127.0.0.1 by the browser) auto-submits
// a text/plain form carrying JSON to /gateway/run and sends a no-cors
// text/plain fetch to /event; then the browser opens the host under the
// rebound name evil.example, as a DNS-rebinding page would. The host
// refuses all three (its /metrics counts the two cross-origin posts that
// arrived) and nothing runs.
func TestBrowserCrossSiteAttack(t *testing.T) {
	browser := chromiumPath(t)
	home := t.TempDir()
	writeSkill(t, home, "mark", "# Skill: mark\n# Description: Marks the day.\n# Status: Approved\n# Classification: role=procedure invocation=direct effect_mode=read_only\n# Triggers: event: ping\n# Vars: WHO=\"nobody\"\n\nmarked by ${WHO}\n")
	p := startServe(t, home, []string{"HOME=" + t.TempDir(), "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(p.url, "http://"))
	target := "http://127.0.0.1:" + port
	page := fmt.Sprintf(`<!doctype html><html><head><title>cats</title></head><body>
<iframe name="sink"></iframe>
<form id="run" method="POST" action="%[1]s/gateway/run" enctype="text/plain" target="sink">
<input name='{"skill_id":"mark","inputs":{"WHO":"evil"},"pad":"' value='"}'>
</form>
<script>
document.getElementById("run").submit();
fetch("%[1]s/event", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
  body: '{"event_name":"ping","params":{"WHO":"evil"}}'}).finally(() => { document.title = "sent"; });
</script></body></html>`, target)
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	defer attacker.Close()
	_, aport, _ := net.SplitHostPort(strings.TrimPrefix(attacker.URL, "http://"))

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(actx)
	defer cancelCtx()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	// the operator visits the attacker's page
	if resp, err := chromedp.RunResponse(ctx, chromedp.Navigate("http://evil.example:"+aport+"/")); err != nil || resp.Status != 200 {
		t.Fatalf("attacker page: %v %v", resp, err)
	}
	// both posts reached the host and were refused for their origin
	metric := `skillc_http_refused_total{reason="origin"} 2`
	var metrics string
	for range 300 {
		_, _, metrics = (rawReq{"GET", "/metrics", "", nil}).do(t, p.url)
		if strings.Contains(metrics, metric) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(metrics, metric) {
		title, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`))
		t.Fatalf("the page's posts were not refused as cross-origin (page title %q):\n%s", title, grepLines(metrics, "skillc_http_refused_total"))
	}
	// a page that rebinds evil.example to 127.0.0.1 cannot read the host
	for _, path := range []string{"/dashboard/", "/gateway/openapi.json", "/metrics"} {
		resp, err := chromedp.RunResponse(ctx, chromedp.Navigate("http://evil.example:"+port+path))
		if err != nil || resp.Status != 403 {
			t.Errorf("rebound %s: %v %v", path, resp, err)
		}
	}
	if n := firesOf(t, p.url, nil); n != 0 {
		t.Fatalf("%d runs recorded after the attack", n)
	}
}
