package httpguard

import (
	"context"
	"encoding/binary"
	"net"
	"strings"
	"testing"
)

// dnsServer answers A queries for the names of hosts with their address
// over real UDP and nothing else (no AAAA records; other names:
// NXDOMAIN). It is the resolver's
// upstream in the tests, so a name that resolves off-machine is resolved
// the way the host resolves names, without the network.
func dnsServer(t *testing.T, hosts map[string]net.IP) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, addr, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := buf[:n]
			if len(q) < 12 {
				continue
			}
			// the question: labels, then QTYPE and QCLASS
			i, labels := 12, []string{}
			for i < len(q) && q[i] != 0 {
				l := int(q[i])
				if i+1+l > len(q) {
					break
				}
				labels = append(labels, string(q[i+1:i+1+l]))
				i += 1 + l
			}
			if i+5 > len(q) {
				continue
			}
			qtype := binary.BigEndian.Uint16(q[i+1:])
			question := q[12 : i+5]
			resp := append([]byte{}, q[:2]...) // id
			flags := uint16(0x8180)            // response, recursion desired and available
			qname := strings.Join(labels, ".")
			ip, known := hosts[strings.ToLower(qname)]
			if !known {
				flags |= 3 // NXDOMAIN
			}
			answers := uint16(0)
			if known && qtype == 1 {
				answers = 1
			}
			resp = binary.BigEndian.AppendUint16(resp, flags)
			resp = binary.BigEndian.AppendUint16(resp, 1)
			resp = binary.BigEndian.AppendUint16(resp, answers)
			resp = append(resp, 0, 0, 0, 0) // no authority, no additional
			resp = append(resp, question...)
			if answers == 1 {
				resp = append(resp, 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
				resp = append(resp, ip.To4()...)
			}
			_, _ = pc.WriteTo(resp, addr)
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

// TestBindSpellings classifies the ways an operator may spell a bind
// address: only those that reach nothing but this machine listen without
// a token; every other one is refused, naming the variable to set, and
// listens once the token is set.
func TestBindSpellings(t *testing.T) {
	res := dnsServer(t, map[string]net.IP{"lan-box.example": net.IPv4(192, 168, 1, 10), "loop-box.example": net.IPv4(127, 0, 0, 5)})
	ctx := context.Background()
	for _, tc := range []struct {
		host     string
		loopback bool
	}{
		{"0.0.0.0", false},
		{"", false},
		{"::", false},
		{"[::]", false},
		{"::ffff:0.0.0.0", false},
		{"0", false}, // glibc reads it as 0.0.0.0
		{"0.0.0.0:7878", false},
		{"192.168.1.10", false},
		{"lan-box.example", false}, // resolves to 192.168.1.10
		{"no-such.example", false}, // does not resolve
		{"127.0.0.1", true},
		{"localhost", true},
		{"::1", true},
		{"127.0.0.2", true},
		{"[::1]", true},
		{"::ffff:127.0.0.1", true},
		{"loop-box.example", true}, // resolves to 127.0.0.5
	} {
		got, why := Loopback(ctx, res, tc.host)
		if got != tc.loopback {
			t.Errorf("Loopback(%q) = %v (%s), want %v", tc.host, got, why, tc.loopback)
		}
		tok := Token{Env: "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN", Guards: "the dashboard"}
		err := CheckBind(ctx, res, tc.host, 7878, tok)
		if tc.loopback && err != nil {
			t.Errorf("CheckBind(%q) without a token = %v, want it to listen", tc.host, err)
		}
		if !tc.loopback && (err == nil || !strings.Contains(err.Error(), "refusing to listen on non-loopback address") || !strings.Contains(err.Error(), "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN")) {
			t.Errorf("CheckBind(%q) without a token = %v, want a refusal naming the variable", tc.host, err)
		}
		tok.Set = true
		if err := CheckBind(ctx, res, tc.host, 7878, tok); err != nil {
			t.Errorf("CheckBind(%q) with the token = %v", tc.host, err)
		}
	}
	if _, why := Loopback(ctx, res, "lan-box.example"); why != `name "lan-box.example" resolves to 192.168.1.10` {
		t.Errorf("lan-box.example refused for %q", why)
	}
	if err := CheckBind(ctx, res, "127.0.0.1", 70000); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("port 70000: %v", err)
	}
	// a refusal names every missing token
	err := CheckBind(ctx, res, "0.0.0.0", 1, Token{Env: "A", Guards: "/mcp"}, Token{Env: "B", Guards: "/event"}, Token{Env: "C", Set: true})
	if err == nil || !strings.Contains(err.Error(), "A (guards /mcp) and B (guards /event)") || strings.Contains(err.Error(), "C") {
		t.Errorf("two missing tokens: %v", err)
	}
}
