package dashboard

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/internal/approval"
)

// fixture is a real filesystem store, a real key pair and the dashboard
// behind a loopback HTTP server.
type fixture struct {
	t      *testing.T
	dir    string
	keys   approval.KeyPaths
	srv    *httptest.Server
	client *http.Client
	log    bytes.Buffer
	mu     sync.Mutex
	now    time.Time
}

const (
	draftSrc = "# Skill: fetch\n# Status: Draft\n\nmain:\n    shell(argv=[\"rm\", \"-f\", \"/tmp/x\"], approved=\"cleanup\") -> R\n    $ tracker.delete_issue id=\"1\" approved=\"t\"\ndefault: main\n"
	pureSrc  = "# Skill: pure\n# Status: Draft\n\nhello\n"
)

func newFixture(t *testing.T, passcode string, withKey bool) *fixture {
	f := &fixture{t: t, dir: t.TempDir(), now: time.Unix(1_700_000_000, 0)}
	kd := t.TempDir()
	f.keys = approval.KeyPaths{Private: filepath.Join(kd, "approval.key"), Public: filepath.Join(kd, "approval.pub")}
	policy := approval.Policy{Secured: true, KeyPath: f.keys.Public}
	if withKey {
		pub, err := approval.GenerateKeys(f.keys, false)
		if err != nil {
			t.Fatal(err)
		}
		policy.PublicKey = pub
	}
	f.write("fetch", draftSrc)
	f.write("pure", pureSrc)
	store, err := skillstore.NewFS(f.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := New(Options{Store: store, Policy: policy, Keys: f.keys, Passcode: passcode, Log: &f.log, Now: f.clock})
	f.srv = httptest.NewServer(d)
	t.Cleanup(f.srv.Close)
	jar, _ := cookiejar.New(nil)
	f.client = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return f
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

func (f *fixture) write(name, src string) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, name+".skill.md"), []byte(src), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// post sends a form asking for JSON and decodes the answer.
// post submits form as the browser does: with the CSRF token the page
// gave (fetched first), unless form sets "csrf" itself.
func (f *fixture) post(path string, form url.Values, header ...string) (int, map[string]string) {
	f.t.Helper()
	if _, ok := form[csrfField]; !ok {
		form = cloneForm(form)
		form.Set(csrfField, f.pending().CSRF)
	}
	req, _ := http.NewRequest("POST", f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]string
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func cloneForm(form url.Values) url.Values {
	out := url.Values{}
	for k, v := range form {
		out[k] = v
	}
	return out
}

func (f *fixture) pending() state {
	f.t.Helper()
	resp, err := f.client.Get(f.srv.URL + "/api/pending")
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var st state
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		f.t.Fatal(err)
	}
	return st
}

func (f *fixture) item(st state, name string) *Item {
	for i := range st.Items {
		if st.Items[i].Name == name {
			return &st.Items[i]
		}
	}
	return nil
}

func TestQueueShowsFootprintAndCommand(t *testing.T) {
	f := newFixture(t, "", true)
	st := f.pending()
	it := f.item(st, "fetch")
	if it == nil || len(st.Items) != 2 {
		t.Fatalf("queue %+v", st.Items)
	}
	if it.Command != "skillc approve fetch" || len(it.Effects) != 2 || !it.Effects[0].Mutating {
		t.Errorf("item %+v", it)
	}
	if !strings.Contains(strings.Join(it.Signals, ";"), "2 mutating op(s)") {
		t.Errorf("signals %v", it.Signals)
	}
	if st.Signing || st.Unlocked {
		t.Errorf("no passcode: the dashboard must be review-only, got %+v", st)
	}
	if code, _ := f.post("/approve", url.Values{"name": {"fetch"}, "file_hash": {it.FileHash}}); code != http.StatusForbidden {
		t.Errorf("approve on a review-only dashboard: %d", code)
	}
	resp, err := f.client.Get(f.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body := new(bytes.Buffer)
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"skillc approve fetch", "line 5: shell rm", "mutating", "Review only"} {
		if !strings.Contains(body.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(body.String(), `action="/approve"`) {
		t.Error("a review-only page offers an approve button")
	}
}

func TestUnlockApproveFlow(t *testing.T) {
	f := newFixture(t, "correct horse", true)
	it := f.item(f.pending(), "fetch")
	form := url.Values{"name": {"fetch"}, "file_hash": {it.FileHash}}
	if code, _ := f.post("/approve", form); code != http.StatusUnauthorized {
		t.Fatalf("approve while locked: %d", code)
	}
	if code, _ := f.post("/unlock", url.Values{"passcode": {"wrong"}}); code != http.StatusUnauthorized {
		t.Fatalf("wrong passcode: %d", code)
	}
	if code, _ := f.post("/unlock", url.Values{"passcode": {"correct horse"}}, "Origin", "http://evil.example"); code != http.StatusForbidden {
		t.Fatalf("cross-origin unlock: %d", code)
	}
	if code, out := f.post("/unlock", url.Values{"passcode": {"correct horse"}}); code != http.StatusOK {
		t.Fatalf("unlock: %d %v", code, out)
	}
	if !f.pending().Unlocked {
		t.Fatal("session not unlocked")
	}
	// the skill changes after review: the reviewed hash no longer matches
	f.write("fetch", strings.Replace(draftSrc, "/tmp/x", "/etc/passwd", 1))
	if code, out := f.post("/approve", form); code != http.StatusConflict {
		t.Fatalf("approve of a changed skill: %d %v", code, out)
	}
	it = f.item(f.pending(), "fetch")
	code, out := f.post("/approve", url.Values{"name": {"fetch"}, "file_hash": {it.FileHash}})
	if code != http.StatusOK || !strings.Contains(out["message"], "approved fetch") {
		t.Fatalf("approve: %d %v", code, out)
	}
	signed, _ := os.ReadFile(filepath.Join(f.dir, "fetch.skill.md"))
	pub, _ := approval.LoadPublicKey(f.keys.Public)
	sv := regexpToken(string(signed))
	if err := approval.Verify(pub, signed, sv); err != nil {
		t.Fatalf("stored signature does not verify: %v\n%s", err, signed)
	}
	if f.item(f.pending(), "fetch") != nil {
		t.Error("a validly signed skill is still pending")
	}
}

// regexpToken returns the token of the # Status: line.
func regexpToken(src string) string {
	for _, l := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(l, "# Status: Approved "); ok {
			return rest
		}
	}
	return ""
}

func TestSessionIdleTTLAndLock(t *testing.T) {
	f := newFixture(t, "pw", true)
	if code, _ := f.post("/unlock", url.Values{"passcode": {"pw"}}); code != http.StatusOK {
		t.Fatal("unlock failed")
	}
	f.advance(SessionTTL - time.Second)
	if !f.pending().Unlocked {
		t.Fatal("session expired before its idle TTL")
	}
	f.advance(SessionTTL - time.Second) // renewed by the last request
	if !f.pending().Unlocked {
		t.Fatal("use did not renew the session")
	}
	f.advance(SessionTTL + time.Second)
	if f.pending().Unlocked {
		t.Fatal("session outlived its idle TTL")
	}
	f.post("/unlock", url.Values{"passcode": {"pw"}})
	f.post("/lock", nil)
	if f.pending().Unlocked {
		t.Fatal("lock did not end the session")
	}
}

func TestWrongPasscodesPause(t *testing.T) {
	f := newFixture(t, "pw", true)
	for i := 0; i < maxFailures; i++ {
		f.post("/unlock", url.Values{"passcode": {"nope"}})
	}
	if code, _ := f.post("/unlock", url.Values{"passcode": {"pw"}}); code != http.StatusTooManyRequests {
		t.Fatalf("right passcode during the pause: %d", code)
	}
	f.advance(failureDelay + time.Second)
	if code, _ := f.post("/unlock", url.Values{"passcode": {"pw"}}); code != http.StatusOK {
		t.Fatalf("unlock after the pause: %d", code)
	}
}

// TestPasscodeBackoffPerAddress: five wrong passcodes pause unlocking for
// the address that sent them, not for the operator's browser at another
// address, which unlocks with the right passcode during the pause.
func TestPasscodeBackoffPerAddress(t *testing.T) {
	f := newFixture(t, "pw", true)
	for range maxFailures {
		f.post("/unlock", url.Values{"passcode": {"nope"}}) // from 127.0.0.1
	}
	if code, _ := f.post("/unlock", url.Values{"passcode": {"pw"}}); code != http.StatusTooManyRequests {
		t.Fatalf("right passcode from the guessing address: %d", code)
	}
	jar, _ := cookiejar.New(nil)
	f.client = &http.Client{Jar: jar, Transport: &http.Transport{
		DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext}}
	if code, out := f.post("/unlock", url.Values{"passcode": {"pw"}}); code != http.StatusOK {
		t.Fatalf("right passcode from another address during the pause: %d %v", code, out)
	}
	if !f.pending().Unlocked {
		t.Fatal("the other address's session is not unlocked")
	}
}

// TestSecurityHeaders: every answer, refusals included, forbids framing
// and sniffing and sends no Referer (a ?token= URL never leaks).
func TestSecurityHeaders(t *testing.T) {
	f := newFixture(t, "pw", true)
	for _, path := range []string{"/", "/api/pending", "/skills", "/nope"} {
		resp, err := f.client.Get(f.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for k, want := range map[string]string{"Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff"} {
			if got := resp.Header.Get(k); got != want {
				t.Errorf("GET %s: %s = %q, want %q", path, k, got, want)
			}
		}
	}
}

// TestMisconfigurationIsLoud: a passcode without a usable private key
// keeps the dashboard review-only, with a banner and a boot-log line.
func TestMisconfigurationIsLoud(t *testing.T) {
	f := newFixture(t, "pw", false)
	st := f.pending()
	if st.Signing || len(st.Banners) != 2 {
		t.Fatalf("state %+v", st)
	}
	joined := strings.Join(st.Banners, "\n")
	for _, want := range []string{"signing is not wired", "review-only", "secured mode without a usable approval public key"} {
		if !strings.Contains(joined, want) || !strings.Contains(f.log.String(), want) {
			t.Errorf("banner/log lacks %q:\n%s\n%s", want, joined, f.log.String())
		}
	}
	if code, _ := f.post("/unlock", url.Values{"passcode": {"pw"}}); code != http.StatusForbidden {
		t.Errorf("unlock without signing: %d", code)
	}
	if it := f.item(st, "fetch"); it == nil || it.Signature != "none" {
		t.Errorf("item %+v", it)
	}
}

func TestNoStore(t *testing.T) {
	d := New(Options{})
	srv := httptest.NewServer(d)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/pending")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st state
	json.NewDecoder(resp.Body).Decode(&st)
	if len(st.Banners) != 1 || !strings.Contains(st.Banners[0], "no skill store") || len(st.Items) != 0 {
		t.Errorf("state %+v", st)
	}
}

// TestMountedUnderPrefix: behind http.StripPrefix the forms, redirects and
// the cookie use the prefix; the unlocked page offers the approve form.
func TestMountedUnderPrefix(t *testing.T) {
	f := newFixture(t, "pw", true)
	store, _ := skillstore.NewFS(f.dir, nil)
	pub, _ := approval.LoadPublicKey(f.keys.Public)
	d := New(Options{Store: store, Policy: approval.Policy{Secured: true, PublicKey: pub}, Keys: f.keys, Passcode: "pw", Prefix: "/dashboard"})
	mux := http.NewServeMux()
	mux.Handle("/dashboard/", http.StripPrefix("/dashboard", d))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	first, err := f.client.Get(srv.URL + "/dashboard/api/pending")
	if err != nil {
		t.Fatal(err)
	}
	var st state
	_ = json.NewDecoder(first.Body).Decode(&st)
	first.Body.Close()
	if c := first.Cookies(); len(c) != 1 || c[0].Name != csrfCookie || c[0].Path != "/dashboard/" || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("csrf cookie %+v", c)
	}
	resp, err := f.client.PostForm(srv.URL+"/dashboard/unlock", url.Values{"passcode": {"pw"}, csrfField: {st.CSRF}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/dashboard/?done=unlocked" {
		t.Fatalf("unlock: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if c := resp.Cookies(); len(c) != 1 || c[0].Path != "/dashboard/" || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v", c)
	}
	page, err := f.client.Get(srv.URL + "/dashboard/")
	if err != nil {
		t.Fatal(err)
	}
	body := new(bytes.Buffer)
	body.ReadFrom(page.Body)
	page.Body.Close()
	if !strings.Contains(body.String(), `action="/dashboard/approve"`) || !strings.Contains(body.String(), `action="/dashboard/lock"`) {
		t.Errorf("unlocked page lacks the prefixed forms:\n%s", body)
	}
}

func TestAuthToken(t *testing.T) {
	f := newFixture(t, "", true)
	store, _ := skillstore.NewFS(f.dir, nil)
	srv := httptest.NewServer(New(Options{Store: store, AuthToken: "s3cret"}))
	defer srv.Close()
	get := func(c *http.Client, path string, header ...string) int {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if len(header) == 2 {
			req.Header.Set(header[0], header[1])
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	plain := &http.Client{}
	if code := get(plain, "/api/pending"); code != http.StatusUnauthorized {
		t.Errorf("no token: %d", code)
	}
	if code := get(plain, "/api/pending", "Authorization", "Bearer wrong"); code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", code)
	}
	if code := get(plain, "/api/pending", "Authorization", "Bearer s3cret"); code != http.StatusOK {
		t.Errorf("bearer token: %d", code)
	}
	for _, scheme := range []string{"s3cret", "Token s3cret", "Basic s3cret", "Bearers3cret"} {
		if code := get(plain, "/api/pending", "Authorization", scheme); code != http.StatusUnauthorized {
			t.Errorf("Authorization: %s = %d, want 401 (the Bearer scheme only)", scheme, code)
		}
	}
	// ?token= once, then the cookie carries it
	if code := get(f.client, "/?token=s3cret"); code != http.StatusOK {
		t.Errorf("?token=: %d", code)
	}
	if code := get(f.client, "/api/pending"); code != http.StatusOK {
		t.Errorf("cookie after ?token=: %d", code)
	}
}

// TestPageMessagesAreCoded: the page words outcomes itself; a crafted
// link cannot make it display arbitrary text.
func TestPageMessagesAreCoded(t *testing.T) {
	f := newFixture(t, "", true)
	page := func(query string) string {
		resp, err := f.client.Get(f.srv.URL + "/?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b := new(bytes.Buffer)
		b.ReadFrom(resp.Body)
		return b.String()
	}
	if got := page("done=approved&name=fetch"); !strings.Contains(got, `<div class="msg">approved fetch</div>`) {
		t.Errorf("approved message missing")
	}
	for _, q := range []string{"msg=Your+key+leaked", "done=approved&name=x%20please%20call%20us", "done=bogus"} {
		if got := page(q); strings.Contains(got, `class="msg"`) {
			t.Errorf("%s: the page shows a message", q)
		}
	}
}

// TestFormPostNeedsCSRFToken: unlock, approve and lock posted by a browser
// without the page's CSRF token (missing, empty, another browser's, or a
// cookie-less post) are refused with 403 and do nothing; a Bearer-token
// client needs none.
func TestFormPostNeedsCSRFToken(t *testing.T) {
	f := newFixture(t, "correct horse", true)
	token := f.pending().CSRF
	if !validToken(token) {
		t.Fatalf("no CSRF token in the page state: %q", token)
	}
	other := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name string
		form url.Values
	}{
		{"missing", url.Values{"passcode": {"correct horse"}, csrfField: nil}},
		{"empty", url.Values{"passcode": {"correct horse"}, csrfField: {""}}},
		{"another browser's", url.Values{"passcode": {"correct horse"}, csrfField: {other}}},
	} {
		form := tc.form
		if form[csrfField] == nil {
			form = url.Values{"passcode": form["passcode"]}
			req, _ := http.NewRequest("POST", f.srv.URL+"/unlock", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Accept", "application/json")
			resp, err := f.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s: unlock = %d", tc.name, resp.StatusCode)
			}
			continue
		}
		if code, body := f.post("/unlock", form); code != http.StatusForbidden || !strings.Contains(body["error"], "CSRF") {
			t.Errorf("%s: unlock = %d %v", tc.name, code, body)
		}
	}
	if f.pending().Unlocked {
		t.Fatal("a post without the CSRF token unlocked signing")
	}
	// A post without any cookie (a fresh browser) is refused too.
	req, _ := http.NewRequest("POST", f.srv.URL+"/unlock", strings.NewReader(url.Values{"passcode": {"correct horse"}, csrfField: {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cookie-less unlock: %v %v", resp.StatusCode, err)
	}
	// With the token: unlock works; approve without it is refused and
	// signs nothing; with it, it signs.
	if code, body := f.post("/unlock", url.Values{"passcode": {"correct horse"}}); code != http.StatusOK {
		t.Fatalf("unlock with the token: %d %v", code, body)
	}
	item := f.pending().Items[0]
	if code, _ := f.post("/approve", url.Values{"name": {item.Name}, "file_hash": {item.FileHash}, csrfField: {other}}); code != http.StatusForbidden {
		t.Fatalf("approve with a wrong token: %d", code)
	}
	if src, _ := os.ReadFile(filepath.Join(f.dir, item.Name+".skill.md")); strings.Contains(string(src), "v3:") {
		t.Fatalf("approve without the CSRF token signed:\n%s", src)
	}
	if code, body := f.post("/approve", url.Values{"name": {item.Name}, "file_hash": {item.FileHash}}); code != http.StatusOK {
		t.Fatalf("approve with the token: %d %v", code, body)
	}
	// Lock needs the token as well.
	if code, _ := f.post("/lock", url.Values{csrfField: {""}}); code != http.StatusForbidden || !f.pending().Unlocked {
		t.Errorf("lock without the token: %d", code)
	}
	// A Bearer client (no cookies) needs no CSRF token.
	bearer := httptest.NewServer(New(Options{AuthToken: "tok"}))
	defer bearer.Close()
	req, _ = http.NewRequest("POST", bearer.URL+"/lock", nil)
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Accept", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("bearer lock: %v %v", resp.StatusCode, err)
	}
}
