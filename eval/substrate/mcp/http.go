package mcp

import (
	"container/list"
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/toolcache"
)

// HTTPOptions configures an HTTP connector.
type HTTPOptions struct {
	Name    string
	URL     string
	Headers map[string]string
	// IdentityHeader, when set, carries contract.CallerIdentity(ctx) on
	// every request and keys one session per identity.
	IdentityHeader string
	// MaxPoolSize bounds the number of live sessions (LRU eviction); 0 is
	// unbounded.
	MaxPoolSize int
	CallTimeout time.Duration
	// HTTPClient is the base client; nil means http.DefaultClient.
	HTTPClient  *http.Client
	Cache       toolcache.Cache
	StaticTools []contract.Tool
}

// HTTP is a contract.Connector for a Streamable HTTP MCP server.
type HTTP struct {
	opts   HTTPOptions
	client *sdk.Client
	disc   *discovery

	mu     sync.Mutex
	lru    *list.List               // of *pooled, most recent at front
	byID   map[string]*list.Element // identity -> element
	closed bool
}

type pooled struct {
	identity string
	cs       *sdk.ClientSession
}

var _ contract.Connector = (*HTTP)(nil)

// NewHTTP returns a connector; sessions open on first use.
func NewHTTP(opts HTTPOptions) *HTTP {
	key := toolcache.Key(opts.Name, "http", opts.URL)
	return &HTTP{
		opts:   opts,
		client: sdk.NewClient(&sdk.Implementation{Name: "skillc", Version: "v1"}, nil),
		disc:   &discovery{cache: opts.Cache, key: key, name: opts.Name, static: opts.StaticTools},
		lru:    list.New(),
		byID:   map[string]*list.Element{},
	}
}

// identity returns the session key for ctx: the caller identity when an
// identity header is configured, else "" (one shared session).
func (h *HTTP) identity(ctx context.Context) string {
	if h.opts.IdentityHeader == "" {
		return ""
	}
	return contract.CallerIdentity(ctx)
}

// session returns the pooled session for ctx's identity, opening it (and
// evicting the least recently used one) when needed.
func (h *HTTP) session(ctx context.Context) (*sdk.ClientSession, error) {
	id := h.identity(ctx)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, fmt.Errorf("connector %s is closed", h.opts.Name)
	}
	if el, ok := h.byID[id]; ok {
		h.lru.MoveToFront(el)
		cs := el.Value.(*pooled).cs
		h.mu.Unlock()
		return cs, nil
	}
	h.mu.Unlock()
	cs, err := h.client.Connect(ctx, h.transport(id), nil)
	if err != nil {
		return nil, fmt.Errorf("connector %s: connect %s: %w", h.opts.Name, h.opts.URL, err)
	}
	return h.admit(id, cs), nil
}

// admit adds a new session to the pool; if another goroutine won the race
// its session is kept and cs is closed.
func (h *HTTP) admit(id string, cs *sdk.ClientSession) *sdk.ClientSession {
	h.mu.Lock()
	if el, ok := h.byID[id]; ok {
		h.lru.MoveToFront(el)
		h.mu.Unlock()
		cs.Close()
		return el.Value.(*pooled).cs
	}
	h.byID[id] = h.lru.PushFront(&pooled{identity: id, cs: cs})
	var evicted []*sdk.ClientSession
	for h.opts.MaxPoolSize > 0 && h.lru.Len() > h.opts.MaxPoolSize {
		old := h.lru.Remove(h.lru.Back()).(*pooled)
		delete(h.byID, old.identity)
		evicted = append(evicted, old.cs)
	}
	h.mu.Unlock()
	for _, e := range evicted {
		e.Close()
	}
	return cs
}

// drop removes a broken session so the next call reconnects.
func (h *HTTP) drop(id string, cs *sdk.ClientSession) {
	h.mu.Lock()
	if el, ok := h.byID[id]; ok && el.Value.(*pooled).cs == cs {
		h.lru.Remove(el)
		delete(h.byID, id)
	}
	h.mu.Unlock()
	cs.Close()
}

func (h *HTTP) transport(id string) sdk.Transport {
	base := h.opts.HTTPClient
	if base == nil {
		base = http.DefaultClient
	}
	hdr := http.Header{}
	for k, v := range h.opts.Headers {
		hdr.Set(k, v)
	}
	if h.opts.IdentityHeader != "" && id != "" {
		hdr.Set(h.opts.IdentityHeader, id)
	}
	client := *base
	client.Transport = &headerTransport{base: base.Transport, hdr: hdr}
	return &sdk.StreamableClientTransport{Endpoint: h.opts.URL, HTTPClient: &client, MaxRetries: -1, DisableStandaloneSSE: true}
}

// PoolSize returns the number of live sessions.
func (h *HTTP) PoolSize() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lru.Len()
}

// Identities returns the identities with live sessions, sorted.
func (h *HTTP) Identities() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.byID))
	for id := range h.byID {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Call invokes a tool in the caller identity's session.
func (h *HTTP) Call(ctx context.Context, tool string, args map[string]any) (any, error) {
	cs, err := h.session(ctx)
	if err != nil {
		return nil, err
	}
	v, err := callTool(ctx, cs, h.opts.Name, tool, args, h.opts.CallTimeout, func() string { return "" })
	if err != nil && ctx.Err() == nil {
		if _, isTool := err.(*contract.ToolError); !isTool {
			h.drop(h.identity(ctx), cs)
		}
	}
	return v, err
}

// Tools lists the server's tools under the cache freshness rule.
func (h *HTTP) Tools(ctx context.Context) ([]contract.Tool, error) {
	return h.disc.tools(ctx, h.fetchTools)
}

// HealthCheck opens a session and pings the server.
func (h *HTTP) HealthCheck(ctx context.Context) error {
	cs, err := h.session(ctx)
	if err != nil {
		return err
	}
	if err := cs.Ping(ctx, nil); err != nil {
		h.drop(h.identity(ctx), cs)
		return fmt.Errorf("connector %s: ping: %w", h.opts.Name, err)
	}
	return nil
}

// Close closes every pooled session.
func (h *HTTP) Close() error {
	h.mu.Lock()
	var all []*sdk.ClientSession
	for el := h.lru.Front(); el != nil; el = el.Next() {
		all = append(all, el.Value.(*pooled).cs)
	}
	h.lru.Init()
	h.byID = map[string]*list.Element{}
	h.closed = true
	h.mu.Unlock()
	for _, cs := range all {
		cs.Close()
	}
	return nil
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	base http.RoundTripper
	hdr  http.Header
}

// RoundTrip implements http.RoundTripper.
func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range t.hdr {
		r.Header[k] = vs
	}
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}
