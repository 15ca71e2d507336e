package dashboard

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/host/httpguard"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/syntax"
)

// cookieName holds the unlocked session id.
const cookieName = "skillc_session"

// Options configure a Dashboard.
type Options struct {
	// Store is the skill store reviewed and signed; nil is reported as a
	// misconfiguration.
	Store contract.SkillStore
	// Policy is the verification posture: its PublicKey classifies
	// signatures, Secured is shown.
	Policy approval.Policy
	// Keys locate the private key, read only by an approve in an
	// unlocked session.
	Keys approval.KeyPaths
	// Passcode enables in-browser signing (SKILLSCRIPT_APPROVAL_PASSCODE);
	// empty keeps the dashboard review-only.
	Passcode string
	// Mutating classifies connector tools for footprints; may be nil.
	Mutating approval.Mutating
	// Now is the clock (session TTL); nil means time.Now.
	Now func() time.Time
	// Log receives the boot-log lines of a misconfiguration; nil discards.
	Log io.Writer
	// Prefix is the path the dashboard is mounted under behind
	// http.StripPrefix (e.g. "/dashboard"); "" for the root.
	Prefix string
	// AuthToken, when set (SKILLSCRIPT_DASHBOARD_AUTH_TOKEN), is required
	// on every request: "Authorization: Bearer", "?token=" (which then
	// sets a cookie) or that cookie. Network hygiene, not the signing
	// boundary (that is the passcode).
	AuthToken string
	// Traces, when set, feeds the fires, trace timeline and health pages
	// and the catalog's last fire; nil shows those pages empty with a note.
	Traces *trace.Store
	// Lint is the context the skill page lints with (connectors,
	// substrates); nil lints without one.
	Lint *lint.Context
}

// Dashboard is the approvals surface; it is an http.Handler.
type Dashboard struct {
	o       Options
	s       *sessions
	signing bool     // in-browser signing is configured and wired
	banners []string // misconfigurations, shown on every page
	mux     *http.ServeMux

	reviewed reviewed // sources reviews were made from, by file hash (review.go)

	cacheMu   sync.Mutex
	items     map[string]Item // review of a skill by name and content hash
	list      []Skill         // the last listing ...
	listToken string          // ... and the store version it was made at
}

// New builds a dashboard and reports misconfigurations (a banner, and a
// line on Log for headless operators). It never reads the private key.
func New(o Options) *Dashboard {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	d := &Dashboard{o: o, s: newSessions(o.Now), mux: http.NewServeMux(), banners: []string{}}
	d.checkWiring()
	for _, b := range d.banners {
		fmt.Fprintf(o.Log, "skillc dashboard: %s\n", b)
	}
	d.mux.HandleFunc("GET /{$}", d.page)
	d.mux.HandleFunc("GET /api/pending", d.apiPending)
	d.mux.HandleFunc("POST /unlock", d.unlock)
	d.mux.HandleFunc("POST /lock", d.lock)
	d.mux.HandleFunc("POST /approve", d.approve)
	d.mux.HandleFunc("GET /skills", d.catalogPage)
	d.mux.HandleFunc("GET /skills/{name}", d.skillPage)
	d.mux.HandleFunc("GET /fires", d.firesPage)
	d.mux.HandleFunc("GET /fires/{id}", d.tracePage)
	d.mux.HandleFunc("GET /health", d.healthPage)
	return d
}

// checkWiring decides whether signing works and collects the gaps.
func (d *Dashboard) checkWiring() {
	if d.o.Store == nil {
		d.banners = append(d.banners, "no skill store reaches the dashboard: nothing can be reviewed or signed")
	}
	if d.o.Policy.Secured && d.o.Policy.PublicKey == nil {
		d.banners = append(d.banners, fmt.Sprintf("secured mode without a usable approval public key (%s): every Approved skill is refused until it is fixed", d.o.Policy.KeyPath))
	}
	if d.o.Passcode == "" {
		return
	}
	var gap string
	if d.o.Store == nil {
		gap = "no skill store"
	} else if err := approval.CheckPrivateKeyFile(d.o.Keys.Private); err != nil {
		gap = err.Error()
	}
	if gap != "" {
		d.banners = append(d.banners, "in-browser approval is configured (SKILLSCRIPT_APPROVAL_PASSCODE) but signing is not wired ("+gap+"): the dashboard stays review-only and skills stay inert")
		return
	}
	d.signing = true
}

// tokenCookie carries the dashboard auth token after a ?token= visit.
const tokenCookie = "skillc_dashboard_token"

// ServeHTTP implements http.Handler.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer") // a ?token= URL never leaks through a link
	if !d.authorized(w, r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="skillc dashboard"`)
		d.fail(w, r, http.StatusUnauthorized, "missing or wrong dashboard token")
		return
	}
	d.mux.ServeHTTP(w, r)
}

// authorized checks the dashboard token (when one is configured):
// "Authorization: Bearer <token>" (no other scheme), the cookie, or a
// correct ?token=, which is then remembered in an HttpOnly cookie.
func (d *Dashboard) authorized(w http.ResponseWriter, r *http.Request) bool {
	if d.o.AuthToken == "" {
		return true
	}
	if httpguard.BearerOK(r, d.o.AuthToken) { // the Bearer scheme only
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && tokenEqual(c.Value, d.o.AuthToken) {
		return true
	}
	if tokenEqual(r.URL.Query().Get("token"), d.o.AuthToken) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: d.o.AuthToken, Path: d.cookiePath(), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		return true
	}
	return false
}

func tokenEqual(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// cookiePath scopes the session cookie to the dashboard.
func (d *Dashboard) cookiePath() string {
	if d.o.Prefix == "" {
		return "/"
	}
	return d.o.Prefix + "/"
}

// state is what the page and the API show.
type state struct {
	Secured  bool     `json:"secured"`
	Signing  bool     `json:"signing"`  // in-browser signing available
	Unlocked bool     `json:"unlocked"` // this browser session is unlocked
	Banners  []string `json:"banners"`
	Items    []Item   `json:"items"`
	Message  string   `json:"message,omitempty"`
	// CSRF is the token every form post of this browser must carry in
	// its "csrf" field (see csrf.go).
	CSRF   string `json:"csrf"`
	Prefix string `json:"-"`
}

func (d *Dashboard) state(r *http.Request) (state, error) {
	st := state{Prefix: d.o.Prefix, Secured: d.o.Policy.Secured, Signing: d.signing, Unlocked: d.signing && d.s.touch(sessionID(r)), Banners: d.banners, Items: []Item{}}
	if d.o.Store == nil {
		return st, nil
	}
	items, err := d.pending(r.Context())
	if err != nil {
		return st, err
	}
	st.Items = items
	return st, nil
}

func (d *Dashboard) apiPending(w http.ResponseWriter, r *http.Request) {
	st, err := d.state(r)
	st.CSRF = d.csrfToken(w, r)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func sessionID(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	return c.Value
}

// sameOrigin refuses cross-site form posts: an Origin header, when sent,
// must name this host (httpguard.SameOrigin: the page's no-referrer policy
// makes a browser send "Origin: null" on its own forms).
func sameOrigin(r *http.Request) bool {
	return r.Header.Get("Origin") == "" || httpguard.SameOrigin(r)
}

// signingRequest refuses a signing request when in-browser signing is off
// or the request is cross-origin, and reports whether it may go on.
func (d *Dashboard) signingRequest(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case !d.signing:
		d.fail(w, r, http.StatusForbidden, "in-browser signing is off: approve at a terminal with skillc approve")
		return false
	case !sameOrigin(r):
		d.fail(w, r, http.StatusForbidden, "cross-origin request refused")
		return false
	case !csrfOK(r):
		d.fail(w, r, http.StatusForbidden, "missing or wrong CSRF token: reload the dashboard page and submit the form again")
		return false
	}
	return true
}

func (d *Dashboard) unlock(w http.ResponseWriter, r *http.Request) {
	if !d.signingRequest(w, r) {
		return
	}
	id, ok, paused := d.s.unlock(httpguard.ClientKey(r), d.o.Passcode, r.PostFormValue("passcode"))
	switch {
	case paused:
		w.Header().Set("Retry-After", strconv.Itoa(int(failureDelay.Seconds())))
		d.fail(w, r, http.StatusTooManyRequests, "too many wrong passcodes from this address: try again in a minute")
		return
	case !ok:
		d.fail(w, r, http.StatusUnauthorized, "wrong passcode")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: d.cookiePath(), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	d.done(w, r, "unlocked", "")
}

func (d *Dashboard) lock(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) || !csrfOK(r) {
		d.fail(w, r, http.StatusForbidden, "missing or wrong CSRF token: reload the dashboard page and submit the form again")
		return
	}
	d.s.lock(sessionID(r))
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: d.cookiePath(), MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	d.done(w, r, "locked", "")
}

// approve signs the skill the operator reviewed: the file hash posted
// (of the exact bytes the review showed) must still be the stored
// skill's, so an edit after review is not signed (409, with the line
// diff when the reviewed version is known).
func (d *Dashboard) approve(w http.ResponseWriter, r *http.Request) {
	if !d.signingRequest(w, r) {
		return
	}
	if !d.s.touch(sessionID(r)) {
		d.fail(w, r, http.StatusUnauthorized, "locked: enter the passcode first")
		return
	}
	name, hash := r.PostFormValue("name"), strings.TrimSpace(r.PostFormValue("file_hash"))
	if hash == "" {
		d.fail(w, r, http.StatusBadRequest, "missing file_hash (the file hash of the reviewed source): reload the dashboard and review the skill again")
		return
	}
	fp, status, err := d.sign(r.Context(), name, hash)
	var changed *ChangedError
	switch {
	case errors.As(err, &changed):
		d.refuseChanged(w, r, changed)
		return
	case err != nil:
		d.fail(w, r, status, err.Error())
		return
	}
	d.done(w, r, "approved", name, fp)
}

// sign re-reads the skill, checks it is byte for byte what was reviewed
// and that a signature can cover it, and signs it.
func (d *Dashboard) sign(ctx context.Context, name, fileHash string) (string, int, error) {
	rec, err := d.o.Store.Get(ctx, name)
	if err != nil {
		return "", http.StatusInternalServerError, err
	}
	if rec == nil || name == "" {
		return "", http.StatusNotFound, fmt.Errorf("skill %q not found", name)
	}
	src := []byte(rec.Body)
	if err := d.checkReviewed(name, src, fileHash); err != nil {
		return "", http.StatusConflict, err
	}
	if err := approval.CheckSignable(src); err != nil {
		return "", http.StatusUnprocessableEntity, fmt.Errorf("skill %q: %v: remove or reword it before approving", name, err)
	}
	if _, diags := syntax.Parse(name+".skill.md", src); diags.HasErrors() {
		return "", http.StatusUnprocessableEntity, fmt.Errorf("skill %q does not parse: fix it before approving", name)
	}
	priv, err := approval.LoadPrivateKey(d.o.Keys.Private)
	if err != nil {
		return "", http.StatusInternalServerError, err
	}
	token := approval.Sign(priv, src)
	if err := d.o.Store.UpdateStatus(ctx, name, contract.StatusApproved+" "+token); err != nil {
		return "", http.StatusInternalServerError, err
	}
	back, err := d.o.Store.Get(ctx, name)
	if err != nil || back == nil {
		return "", http.StatusInternalServerError, fmt.Errorf("skill %q vanished while it was signed", name)
	}
	pub := approval.PublicKeyOf(priv)
	f, _ := syntax.Parse(name+".skill.md", []byte(back.Body))
	if err := approval.CheckStamped(f, pub, token); err != nil {
		return "", http.StatusConflict, fmt.Errorf("skill %q after signing: %v", name, err)
	}
	return approval.Fingerprint(pub), http.StatusOK, nil
}

// wantsJSON reports whether the client asked for JSON (the API) rather
// than a page.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// done answers a successful action: JSON for the API, else a redirect
// to the page with the outcome as a code (the page words it, so a link
// cannot make the dashboard display arbitrary text).
func (d *Dashboard) done(w http.ResponseWriter, r *http.Request, code, name string, extra ...string) {
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, map[string]string{"message": outcome(code, name, extra...)})
		return
	}
	q := url.Values{"done": {code}}
	if name != "" {
		q.Set("name", name)
	}
	http.Redirect(w, r, d.o.Prefix+"/?"+q.Encode(), http.StatusSeeOther)
}

// outcome words an action's result; unknown codes and names outside the
// skill-name alphabet word nothing.
func outcome(code, name string, extra ...string) string {
	switch {
	case code == "unlocked":
		return "unlocked for this session (" + SessionTTL.String() + " idle)"
	case code == "locked":
		return "locked"
	case code == "approved" && validName(name):
		msg := "approved " + name
		if len(extra) > 0 {
			msg += ": signed with key " + extra[0]
		}
		return msg
	}
	return ""
}

// validName reports whether s is a plausible skill name (letters, digits,
// '.', '_', '-').
func validName(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, c := range s {
		ok := c == '.' || c == '_' || c == '-' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}

func (d *Dashboard) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if wantsJSON(r) {
		writeJSON(w, status, map[string]string{"error": msg})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintln(w, msg)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
