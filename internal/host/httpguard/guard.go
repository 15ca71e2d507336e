package httpguard

import (
	"crypto/subtle"
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Refusal reasons, passed to Guard.OnRefuse (and the host's
// skillc_http_refused_total counter).
const (
	ReasonHost        = "host"
	ReasonOrigin      = "origin"
	ReasonContentType = "content_type"
)

// Guard is the request check every route of a listener goes through. It
// refuses (403) a request whose Host is not this machine or a configured
// public name (DNS rebinding), and one whose Origin, when sent, is neither
// the server's own origin nor a configured one (a cross-site page). It
// sets Referrer-Policy: no-referrer and X-Content-Type-Options: nosniff on
// every answer, and CORS headers only for the configured origins.
type Guard struct {
	// Hosts are the public names (without port) clients may use besides
	// loopback names and addresses and the address a request arrived on.
	Hosts []string
	// Origins are the cross-origin callers allowed (scheme://host[:port]),
	// answered with CORS headers.
	Origins []string
	// OnRefuse, when set, is called with the reason of each refusal.
	OnRefuse func(reason string)
}

// Wrap returns next behind the guard.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if !g.hostOK(r) {
			g.refuse(w, http.StatusForbidden, ReasonHost, "Host "+quote(r.Host)+" is not this server: use a loopback address or a configured public name (SKILLSCRIPT_ALLOWED_HOSTS)")
			return
		}
		origin := r.Header.Get("Origin")
		cors := false
		if origin != "" {
			switch {
			case SameOrigin(r):
			case g.originAllowed(origin):
				cors = true
			default:
				g.refuse(w, http.StatusForbidden, ReasonOrigin, "cross-origin request from "+quote(origin)+" refused (SKILLSCRIPT_ALLOWED_ORIGINS)")
				return
			}
		}
		if cors {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Allow-Credentials", "true")
			h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, Retry-After")
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// RequireJSON refuses (415) a request that carries a body (POST, PUT,
// PATCH) with a Content-Type other than application/json: a browser sends
// a cross-site form or text/plain POST without asking first, never a JSON
// one.
func (g *Guard) RequireJSON(next http.Handler) http.Handler {
	return g.requireType(next, "application/json")
}

// RequireForm is RequireJSON for HTML form posts:
// application/x-www-form-urlencoded or multipart/form-data.
func (g *Guard) RequireForm(next http.Handler) http.Handler {
	return g.requireType(next, "application/x-www-form-urlencoded", "multipart/form-data")
}

func (g *Guard) requireType(next http.Handler, types ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			ok := false
			for _, t := range types {
				ok = ok || (err == nil && mt == t)
			}
			if !ok {
				g.refuse(w, http.StatusUnsupportedMediaType, ReasonContentType, "Content-Type must be "+strings.Join(types, " or "))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (g *Guard) refuse(w http.ResponseWriter, code int, reason, msg string) {
	if g != nil && g.OnRefuse != nil {
		g.OnRefuse(reason)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	name := "Forbidden"
	if code == http.StatusUnsupportedMediaType {
		name = "UnsupportedMediaType"
	}
	_ = json.NewEncoder(w).Encode(map[string]string{"error": name, "message": msg})
}

// hostOK accepts a Host that is a loopback name or address, the IP
// address the request arrived on (an address cannot be rebound), or a
// configured public name.
func (g *Guard) hostOK(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Unmap().IsLoopback() {
			return true
		}
		if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && la != nil {
			if ap, err := netip.ParseAddrPort(la.String()); err == nil && ap.Addr().Unmap() == ip.Unmap() {
				return true
			}
		}
		return false
	}
	for _, h := range g.Hosts {
		if strings.EqualFold(strings.TrimSpace(h), host) {
			return true
		}
	}
	return false
}

// SameOrigin reports whether r's Origin header names the host the request
// was sent to (the server's own origin; the scheme is not compared, a TLS
// proxy may sit in front). "Origin: null" counts as the server's own only
// when the browser says the request is same-origin (Sec-Fetch-Site, which
// no page can set): a page served with Referrer-Policy: no-referrer posts
// its forms with Origin: null, and so does a sandboxed frame, cross-site.
// A request without Origin is not a browser's cross-origin request; the
// caller decides what that means.
func SameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "null" {
		return r.Header.Get("Sec-Fetch-Site") == "same-origin"
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

func (g *Guard) originAllowed(origin string) bool {
	for _, o := range g.Origins {
		if strings.EqualFold(strings.TrimSuffix(strings.TrimSpace(o), "/"), origin) {
			return true
		}
	}
	return false
}

// BearerToken returns the token of an "Authorization: Bearer <token>"
// header (the scheme is case-insensitive); any other scheme, or none, is
// no token.
func BearerToken(r *http.Request) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// BearerOK reports whether r carries "Authorization: Bearer <want>",
// compared in constant time.
func BearerOK(r *http.Request, want string) bool {
	got, ok := BearerToken(r)
	return ok && want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// ClientKey is the address back-offs are counted per: the remote IP, and
// for IPv6 its /64 (one host usually owns the whole prefix).
func ClientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
