// Package httpguard holds the HTTP defences every skillc listener shares
// (skillc serve, skillc dashboard and any later one): the bind check that
// refuses a non-loopback listener without a token, the request guard
// (Host, Origin, Content-Type, security headers), the body read deadline
// and the http.Server timeouts.
package httpguard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Token is one credential a non-loopback listener needs: the environment
// variable that sets it, what it guards, and whether it is set.
type Token struct {
	Env    string // e.g. SKILLSCRIPT_DASHBOARD_AUTH_TOKEN
	Guards string // e.g. "/mcp"
	Set    bool
}

// CheckBind refuses to listen on host:port when host may reach beyond
// this machine (see Loopback) and one of tokens is not set. resolver
// resolves names (nil: net.DefaultResolver). The error names the
// address, the missing variables and the fix.
func CheckBind(ctx context.Context, resolver *net.Resolver, host string, port int, tokens ...Token) error {
	if port < 0 || port > 65535 {
		return fmt.Errorf("port %d is out of range (0-65535)", port)
	}
	if ok, _ := Loopback(ctx, resolver, host); ok {
		return nil
	}
	var missing []string
	for _, t := range tokens {
		if !t.Set {
			missing = append(missing, t.Env+" (guards "+t.Guards+")")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, why := Loopback(ctx, resolver, host)
	return fmt.Errorf("refusing to listen on non-loopback address %s (%s) without authentication: set %s, or bind 127.0.0.1",
		net.JoinHostPort(host, strconv.Itoa(port)), why, strings.Join(missing, " and "))
}

// Loopback reports whether a listener bound to host (as given to --host
// or SKILLSCRIPT_HOST: an address, a name, either with a port) reaches
// only this machine, and if not, why. Only what is known to be loopback
// is: an address in 127.0.0.0/8 or ::1 (also IPv4-mapped), or a name
// every address of which is one. The empty host, the unspecified
// addresses (0.0.0.0, ::, ::ffff:0.0.0.0) and anything that does not
// parse or resolve (such as "0", which some resolvers read as 0.0.0.0)
// are not.
func Loopback(ctx context.Context, resolver *net.Resolver, host string) (bool, string) {
	h := strings.TrimSpace(host)
	if hp, _, err := net.SplitHostPort(h); err == nil {
		h = hp // "0.0.0.0:7878", "[::1]:80"
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if h == "" {
		return false, "every interface"
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		return addrLoopback(ip)
	}
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := resolver.LookupNetIP(ctx, "ip", h)
	if err != nil || len(addrs) == 0 {
		return false, fmt.Sprintf("name %q does not resolve to a loopback address", h)
	}
	for _, a := range addrs {
		if ok, _ := addrLoopback(a); !ok {
			return false, fmt.Sprintf("name %q resolves to %s", h, a.Unmap())
		}
	}
	return true, ""
}

func addrLoopback(ip netip.Addr) (bool, string) {
	ip = ip.Unmap()
	switch {
	case ip.IsUnspecified():
		return false, "every interface"
	case ip.IsLoopback():
		return true, ""
	}
	return false, "reachable from the network"
}
