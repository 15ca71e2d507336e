package dashboard

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/format/highlight"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/syntax"
)

const (
	cronSrc = "# Skill: nightly\n# Status: Draft\n# Description: cleans up <tmp> & reports\n# Triggers: cron: 0 3 * * *\n# Vars: WHO = \"ops\"\n\nmain:\n    $ github.create_issue title=\"${WHO}\" approved=\"t\"\n    emit(text=\"done\")\ndefault: main\n"
	// xssSrc carries markup in every place a page shows skill text.
	xssSrc = "# Skill: xss\n# Status: Draft\n# Description: <script>alert(1)</script>\n\nmain:\n    emit(text=\"<img src=x onerror=alert(2)>\")\n    $ evil.run cmd=\"</td><script>\" approved=\"x\"\ndefault: main\n"
)

// pagesFixture is a dashboard over a real FS store and a real trace
// store holding one recorded run of "nightly" with three ops.
type pagesFixture struct {
	srv    *httptest.Server
	traces *trace.Store
	runID  string
}

func newPagesFixture(t *testing.T, token string) *pagesFixture {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{"fetch": draftSrc, "pure": pureSrc, "nightly": cronSrc, "xss": xssSrc} {
		if err := os.WriteFile(filepath.Join(dir, name+".skill.md"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, err := skillstore.NewFS(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	traces, err := trace.Open(filepath.Join(t.TempDir(), trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { traces.Close() })
	t0 := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
	run := &trace.Run{ID: "tr-1", Skill: "nightly", ContentHash: "h", Trigger: "cron", TriggerName: "0 3 * * *", StartedAt: t0}
	ctx := context.Background()
	if err := traces.Begin(ctx, run, cronSrc); err != nil {
		t.Fatal(err)
	}
	ops := []trace.Op{
		{Skill: "nightly", Target: "main", Op: "$ github.create_issue", Line: 8, StartedAt: t0, Duration: 120 * time.Millisecond, Outcome: trace.OutcomeError, Detail: "HTTP 502 <bad gateway>"},
		{Skill: "nightly", Target: "main", Op: "emit", Line: 9, StartedAt: t0.Add(130 * time.Millisecond), Duration: time.Millisecond, Outcome: trace.OutcomeOK},
	}
	if err := traces.Finish(ctx, "tr-1", &eval.Result{Status: "failed"}, ops, t0.Add(200*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	kd := t.TempDir()
	keys := approval.KeyPaths{Private: filepath.Join(kd, "approval.key"), Public: filepath.Join(kd, "approval.pub")}
	pub, err := approval.GenerateKeys(keys, false)
	if err != nil {
		t.Fatal(err)
	}
	d := New(Options{Store: store, Traces: traces, Policy: approval.Policy{Secured: true, PublicKey: pub, KeyPath: keys.Public}, Keys: keys, AuthToken: token})
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return &pagesFixture{srv: srv, traces: traces, runID: "tr-1"}
}

func (p *pagesFixture) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(p.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func wantAll(t *testing.T, page, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s: missing %q", page, w)
		}
	}
}

func TestCatalogPage(t *testing.T) {
	p := newPagesFixture(t, "")
	code, body := p.get(t, "/skills")
	if code != 200 {
		t.Fatalf("GET /skills = %d", code)
	}
	wantAll(t, "catalog", body,
		`href="/skills/nightly"`, `href="/skills/fetch"`, `href="/skills/pure"`, "4 skill(s)",
		"<code>cron: 0 3 * * *</code>", // trigger
		"cleans up &lt;tmp&gt; &amp; reports",
		`href="/fires/tr-1"`, `class="o-failed">failed`, // last fire of nightly
		`class="st-Draft">Draft`, `class="on">Skills`)
	if strings.Contains(body, "<script>alert") {
		t.Error("catalog: skill text reached the page unescaped")
	}
}

func TestSkillPage(t *testing.T) {
	p := newPagesFixture(t, "")
	code, body := p.get(t, "/skills/nightly")
	if code != 200 {
		t.Fatalf("GET /skills/nightly = %d", code)
	}
	wantAll(t, "skill", body,
		`<table id="footprint">`, "<code>$ github.create_issue</code>", // footprint
		"<td>Triggers</td><td><code>cron: 0 3 * * *</code>", "<td>Vars</td>", "(default <code>main</code>)", // contract
		`<span class="t-namespace">github</span>`, `<span class="t-method">create_issue</span>`, `<span class="t-macro"># Skill</span>`, // colour
		`<span class="ln">8</span>`, "skillc approve nightly", `href="/fires/tr-1"`)
	// a skill with a lint finding shows it in the table and on its line
	code, body = p.get(t, "/skills/fetch")
	if code != 200 {
		t.Fatal(code)
	}
	wantAll(t, "skill fetch", body, `<table id="diagnostics">`, `class="l-`, "shell")
	code, body = p.get(t, "/skills/xss")
	if code != 200 || strings.Contains(body, "<script>") || strings.Contains(body, "<img") {
		t.Errorf("GET /skills/xss = %d; unescaped skill text:\n%s", code, body)
	}
	wantAll(t, "skill xss", body, "&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(2)&gt;")
	for _, path := range []string{"/skills/nope", "/skills/..%2fetc", "/skills/a%20b"} {
		if code, _ := p.get(t, path); code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, code)
		}
	}
}

func TestFiresAndTracePages(t *testing.T) {
	p := newPagesFixture(t, "")
	code, body := p.get(t, "/fires")
	if code != 200 {
		t.Fatal(code)
	}
	wantAll(t, "fires", body, `<table id="fires">`, `href="/fires/tr-1"`, "cron", `class="o-failed">failed`, "200 ms")
	code, body = p.get(t, "/fires?skill=pure")
	if code != 200 || !strings.Contains(body, "No fires recorded.") {
		t.Errorf("GET /fires?skill=pure = %d", code)
	}
	code, body = p.get(t, "/fires/tr-1")
	if code != 200 {
		t.Fatal(code)
	}
	wantAll(t, "trace", body, `<table id="timeline">`, "<code>$ github.create_issue</code>", "HTTP 502 &lt;bad gateway&gt;",
		"120.0 ms", "<td>130.0</td>", `class="o-error" style="left:0.00%;width:60.00%"`, `style="left:65.00%;width:0.50%"`)
	if code, _ := p.get(t, "/fires/nope"); code != http.StatusNotFound {
		t.Errorf("unknown trace = %d, want 404", code)
	}
}

func TestHealthPage(t *testing.T) {
	p := newPagesFixture(t, "")
	code, body := p.get(t, "/health")
	if code != 200 {
		t.Fatal(code)
	}
	wantAll(t, "health", body, `<table id="skill-health">`, `href="/fires?skill=nightly"`,
		`<table id="connector-health">`, "<code>github</code>", "HTTP 502 &lt;bad gateway&gt;", "120 ms")
}

// TestPagesWithoutTraces: without a trace store the pages still render,
// say why they are empty, and the trace page is a 404.
func TestPagesWithoutTraces(t *testing.T) {
	store, err := skillstore.NewFS(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(Options{Store: store}))
	defer srv.Close()
	for _, path := range []string{"/skills", "/fires", "/health"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "no trace store") {
			t.Errorf("GET %s = %d, no note:\n%s", path, resp.StatusCode, b)
		}
	}
	resp, err := http.Get(srv.URL + "/fires/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("trace without a store = %d", resp.StatusCode)
	}
}

// TestPagesBehindToken: every new page is behind the dashboard token and
// shows the misconfiguration banner.
func TestPagesBehindToken(t *testing.T) {
	p := newPagesFixture(t, "s3cret")
	for _, path := range []string{"/skills", "/skills/nightly", "/fires", "/fires/tr-1", "/health"} {
		if code, _ := p.get(t, path); code != http.StatusUnauthorized {
			t.Errorf("GET %s without token = %d, want 401", path, code)
		}
		if code, _ := p.get(t, path+sep(path)+"token=s3cret"); code != 200 {
			t.Errorf("GET %s with token = %d", path, code)
		}
	}
	srv := httptest.NewServer(New(Options{Policy: approval.Policy{Secured: true, KeyPath: "/nonexistent.pub"}}))
	defer srv.Close()
	for _, path := range []string{"/skills", "/fires", "/health"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), `class="banner"`) {
			t.Errorf("GET %s: no misconfiguration banner", path)
		}
	}
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// TestColourKeepsText: stripping the spans from the coloured lines and
// unescaping gives the source back, line by line.
func TestColourKeepsText(t *testing.T) {
	for _, src := range []string{cronSrc, xssSrc, draftSrc, "", "no newline", "# Skill: x\n\n\n"} {
		checkColour(t, []byte(src))
	}
}

func FuzzColour(f *testing.F) {
	for _, s := range []string{cronSrc, xssSrc, draftSrc, pureSrc} {
		f.Add(s)
	}
	if ents, err := filepath.Glob("../../../testdata/*/*.skill.md"); err == nil {
		for i, p := range ents {
			if i > 40 {
				break
			}
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) { checkColour(t, []byte(src)) })
}

func checkColour(t *testing.T, src []byte) {
	t.Helper()
	f, _ := syntax.Parse("x.skill.md", src)
	lines := colour(src, highlight.Tokens(f))
	var got []string
	for _, l := range lines {
		got = append(got, unescape(stripTags(string(l.HTML))))
	}
	// html/template's escaper writes NUL as U+FFFD, as a browser shows it
	want := strings.Split(strings.ReplaceAll(string(src), "\x00", "\uFFFD"), "\n")
	if len(src) > 0 && src[len(src)-1] == '\n' {
		want = want[:len(want)-1]
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("colour lost text:\n got %q\nwant %q", got, want)
	}
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ { // bytes: invalid UTF-8 passes through as is
		switch c := s[i]; {
		case c == '<':
			in = true
		case c == '>' && in:
			in = false
		case !in:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

// TestPagesWhileStoreChanges serves the catalog and queue from several
// goroutines while skills are written through the store and behind its
// back; every answer is a whole page and the last one shows every write
// (run with -race).
func TestPagesWhileStoreChanges(t *testing.T) {
	dir := t.TempDir()
	store, err := skillstore.NewFS(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(Options{Store: store}))
	defer srv.Close()
	done := make(chan struct{})
	errs := make(chan error, 8)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				for _, path := range []string{"/skills", "/", "/api/pending"} {
					resp, err := http.Get(srv.URL + path)
					if err != nil {
						errs <- err
						return
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 || (path != "/api/pending" && !strings.Contains(string(b), "</html>")) {
						errs <- fmt.Errorf("GET %s = %d", path, resp.StatusCode)
						return
					}
				}
			}
		}()
	}
	ctx := context.Background()
	for i := range 20 {
		name := fmt.Sprintf("w%02d", i)
		src := strings.Replace(pureSrc, "# Skill: pure", "# Skill: "+name, 1)
		if i%2 == 0 {
			if _, err := store.Write(ctx, name, src, "t"); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(filepath.Join(dir, name+".skill.md"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	resp, err := http.Get(srv.URL + "/skills")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "20 skill(s)") || !strings.Contains(string(b), "/skills/w19") {
		t.Errorf("the catalog after the writes lacks some:\n%s", b)
	}
}
