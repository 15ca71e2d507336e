package dashboard

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
)

// csrfCookie holds the browser's CSRF token; every form carries the same
// value in its "csrf" field (double submit). A cross-site page can make a
// browser send the cookie only on same-site requests (SameSite=Strict)
// and can never read it, so it cannot fill the field.
const csrfCookie = "skillc_csrf"

// csrfField is the form field carrying the token.
const csrfField = "csrf"

// csrfToken returns the browser's CSRF token, setting the cookie with a
// new random one when the request has none.
func (d *Dashboard) csrfToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && validToken(c.Value) {
		return c.Value
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ""
	}
	tok := hex.EncodeToString(b[:])
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: tok, Path: d.cookiePath(), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	return tok
}

// csrfOK reports whether a form post carries the CSRF token of its
// browser. A request with an Authorization: Bearer header is not a
// browser form post (browsers never add one by themselves, and a
// cross-site script cannot without a CORS grant the dashboard never
// gives), so it needs none.
func csrfOK(r *http.Request) bool {
	if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		return true
	}
	c, err := r.Cookie(csrfCookie)
	if err != nil || !validToken(c.Value) {
		return false
	}
	return tokenEqual(r.PostFormValue(csrfField), c.Value)
}

// validToken reports whether s looks like a token csrfToken made.
func validToken(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
