package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/syntax"
)

// chromiumPath finds Debian's chromium. Outside CI a missing browser skips
// the test with a message; under CI=true it fails (.ci/run installs it).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	t.Skip("SKIPPED: chromium is not installed (apt-get install chromium): the dashboard browser test did not run")
	return ""
}

// TestDashboardInRealBrowser drives the approvals dashboard of a real
// `skillc serve` process in secured mode with Debian's chromium: no token
// is refused with 401; ?token= opens the queue, which shows the unsigned
// skill's effectful footprint and the terminal command; a wrong passcode
// is refused, and so is the right one posted without the page's CSRF
// token; the right one unlocks signing; Approve signs the skill (the
// queue empties, the stored file verifies under the public key) and the
// signed skill then runs in secured mode over MCP. Then the catalog lists
// it as Approved with its last fire, its page shows the footprint,
// contract and coloured source, the fires list leads to the run's per-op
// timeline, and the health page counts its runs.
//
// Screenshots go to a temporary directory, or to
// $SKILLC_DASHBOARD_SCREENSHOTS (docs/dashboard for the README):
//
//	SKILLC_DASHBOARD_SCREENSHOTS=$PWD/docs/dashboard go test ./cmd/skillc -run TestDashboardInRealBrowser
func TestDashboardInRealBrowser(t *testing.T) {
	browser := chromiumPath(t)
	shots := os.Getenv("SKILLC_DASHBOARD_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	home := t.TempDir()
	keys := filepath.Join(t.TempDir(), "keys")
	writeSkill(t, home, "report", "# Skill: report\n# Status: Draft\n# Vars: WHO=\"team\"\n\nrun:\n    shell(argv=[\"echo\", \"weekly report for\", \"${WHO}\"]) -> R\n    emit(text=\"${R|trim}\")\ndefault: run\n")
	p := startServe(t, home, []string{
		"SKILLSCRIPT_SECURED_MODE=true", "SKILLSCRIPT_SHELL_ALLOWLIST=echo",
		"SKILLSCRIPT_APPROVAL_KEY_FILE=" + keys + "/approval.key", "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE=" + keys + "/approval.pub",
		"SKILLSCRIPT_APPROVAL_PASSCODE=open sesame", "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok",
	})
	dash := p.url + "/dashboard/"

	// Before approval the MCP host refuses the unsigned Draft in secured mode.
	cs := connect(t, p.url, map[string]string{"Authorization": "Bearer tok"})
	var refused struct{ Error string }
	if res := callJSON(t, cs, "execute_skill", map[string]any{"name": "report"}, &refused); !res.IsError {
		t.Fatalf("the unsigned draft ran in secured mode")
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1200, 800),
		chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(actx)
	defer cancelCtx()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	shot := func(name string) {
		t.Helper()
		buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// load runs actions that end in a page load (a navigation or a form
	// post) and returns the document's HTTP status.
	load := func(actions ...chromedp.Action[chromedp.Void]) int64 {
		t.Helper()
		resp, err := chromedp.RunResponse(ctx, actions...)
		if err != nil {
			t.Fatalf("page load: %v", err)
		}
		return resp.Status
	}
	text := func() string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
		if err != nil {
			t.Fatalf("page text: %v", err)
		}
		return s
	}

	// 1. No token: 401, nothing shown.
	if code := load(chromedp.Navigate(dash)); code != 401 {
		t.Fatalf("dashboard without the token: HTTP %d", code)
	}
	if body := text(); !strings.Contains(body, "missing or wrong dashboard token") || strings.Contains(body, "report") {
		t.Fatalf("401 page: %q", body)
	}
	shot("dashboard-401.png")

	// 2. ?token= once: the queue lists the skill, its footprint and command.
	if code := load(chromedp.Navigate(dash + "?token=tok")); code != 200 {
		t.Fatalf("dashboard with ?token=: HTTP %d", code)
	}
	body := text()
	for _, want := range []string{"secured", "report", "Draft", "shell", "echo", "skillc approve report", "Unlock signing"} {
		if !strings.Contains(body, want) {
			t.Fatalf("queue page lacks %q:\n%s", want, body)
		}
	}
	shot("dashboard-queue.png")
	// The token now lives in a cookie: the next load needs no query.
	if code := load(chromedp.Navigate(dash)); code != 200 {
		t.Fatalf("dashboard after ?token= (cookie): HTTP %d", code)
	}

	// 3. A wrong passcode is refused.
	passcode := chromedp.CSS(`input[name="passcode"]`)
	unlock := chromedp.CSS(`form[action="/dashboard/unlock"] button`)
	if code := load(chromedp.SendKeys(passcode, "guess"), chromedp.Click(unlock)); code != 401 {
		t.Fatalf("wrong passcode: HTTP %d", code)
	}
	if body := text(); !strings.Contains(body, "wrong passcode") {
		t.Fatalf("wrong passcode page: %q", body)
	}
	shot("dashboard-wrong-passcode.png")

	// 3b. The right passcode in a form stripped of its CSRF token is refused.
	load(chromedp.Navigate(dash))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('form[action="/dashboard/unlock"] input[name="csrf"]').remove(); return true })()`)); err != nil {
		t.Fatal(err)
	}
	if code := load(chromedp.SendKeys(passcode, "open sesame"), chromedp.Click(unlock)); code != 403 {
		t.Fatalf("unlock without the CSRF token: HTTP %d", code)
	}
	if body := text(); !strings.Contains(body, "CSRF") {
		t.Fatalf("no-CSRF page: %q", body)
	}

	// 4. The right passcode unlocks signing; Approve appears.
	load(chromedp.Navigate(dash))
	if code := load(chromedp.SendKeys(passcode, "open sesame"), chromedp.Click(unlock)); code != 200 {
		t.Fatalf("unlock: HTTP %d", code)
	}
	if body := text(); !strings.Contains(body, "unlocked for this session") || !strings.Contains(body, "Approve") {
		t.Fatalf("unlocked page:\n%s", body)
	}
	shot("dashboard-unlocked.png")

	// 5. Approve: the skill is signed and leaves the queue.
	if code := load(chromedp.Click(chromedp.CSS(`form[action="/dashboard/approve"] button`))); code != 200 {
		t.Fatalf("approve: HTTP %d", code)
	}
	body = text()
	if !strings.Contains(body, "approved report") || !strings.Contains(body, "Nothing is waiting for approval") {
		t.Fatalf("after approve:\n%s", body)
	}
	shot("dashboard-approved.png")
	// The token and session cookies are HttpOnly: page script cannot read them.
	jsCookies, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(jsCookies, "skillc_") {
		t.Errorf("dashboard cookies are readable from script: %q", jsCookies)
	}

	// 6. The stored skill verifies under the public key and runs in
	// secured mode.
	src, err := os.ReadFile(filepath.Join(home, "skills", "report.skill.md"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := approval.LoadPublicKey(keys + "/approval.pub")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.Parse("report.skill.md", src)
	if sv := approval.StatusOf(f); sv == nil || approval.Verify(pub, src, sv.Token) != nil {
		t.Fatalf("the stored skill is not validly signed:\n%s", src)
	}
	var ex struct{ Status, Output string }
	callJSON(t, cs, "execute_skill", map[string]any{"name": "report", "inputs": map[string]any{"WHO": "ops"}}, &ex)
	if ex.Status != "ok" || ex.Output != "weekly report for ops" {
		t.Errorf("signed skill run in secured mode = %+v", ex)
	}

	// 7. The catalog lists the skill as Approved with its trigger-less
	// row and its last fire (the run just made).
	if code := load(chromedp.Navigate(dash + "skills")); code != 200 {
		t.Fatalf("catalog: HTTP %d", code)
	}
	body = text()
	for _, want := range []string{"Skills", "report", "Approved", "signature: valid", "1 effect(s)", "ok"} {
		if !strings.Contains(body, want) {
			t.Fatalf("catalog lacks %q:\n%s", want, body)
		}
	}
	shot("dashboard-catalog.png")

	// 8. Open the skill: its footprint, contract and coloured source.
	if code := load(chromedp.Click(chromedp.CSS(`#catalog a[href="/dashboard/skills/report"]`))); code != 200 {
		t.Fatalf("skill page: HTTP %d", code)
	}
	body = text()
	for _, want := range []string{"Effectful footprint", "shell", "echo", "Contract", "WHO", "Source", "Recent fires"} {
		if !strings.Contains(body, want) {
			t.Fatalf("skill page lacks %q:\n%s", want, body)
		}
	}
	footprint, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#footprint")))
	if err != nil || !strings.Contains(footprint, "shell") || !strings.Contains(footprint, "echo") {
		t.Fatalf("footprint table: %q, %v", footprint, err)
	}
	coloured, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#source span.t-function, #source span.t-macro, #source span.t-type").length`))
	if err != nil || coloured < 3 {
		t.Fatalf("source colouring: %d coloured spans, %v", coloured, err)
	}
	shot("dashboard-skill.png")

	// 9. The fires list and one trace's per-op timeline.
	if code := load(chromedp.Navigate(dash + "fires")); code != 200 {
		t.Fatalf("fires: HTTP %d", code)
	}
	if body := text(); !strings.Contains(body, "report") || !strings.Contains(body, "ok") {
		t.Fatalf("fires page:\n%s", body)
	}
	shot("dashboard-fires.png")
	okTrace := chromedp.CSS(`#fires tr:has(td.o-ok) a[href^="/dashboard/fires/"]`)
	if code := load(chromedp.Click(okTrace)); code != 200 {
		t.Fatalf("trace page: HTTP %d", code)
	}
	timeline, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#timeline")))
	if err != nil || !strings.Contains(timeline, "shell") || !strings.Contains(timeline, "emit") {
		t.Fatalf("timeline: %q, %v", timeline, err)
	}
	bars, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#timeline .bar span").length`))
	if err != nil || bars < 2 {
		t.Fatalf("timeline bars: %d, %v", bars, err)
	}
	shot("dashboard-trace.png")

	// 10. Health: the skill's runs (the refused one and the ok one).
	if code := load(chromedp.Navigate(dash + "health")); code != 200 {
		t.Fatalf("health: HTTP %d", code)
	}
	health, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#skill-health")))
	if err != nil || !strings.Contains(health, "report") {
		t.Fatalf("health table: %q, %v", health, err)
	}
	shot("dashboard-health.png")
	if err := p.stop(t); err != nil {
		t.Errorf("exit: %v\n%s", err, p.stderr)
	}
	t.Logf("screenshots in %s", shots)
}
