package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// DefaultCacheTTL is how long a discovered tool list stays fresh.
const DefaultCacheTTL = 24 * time.Hour

// ToolCache stores discovered tool lists on disk, one file per connector
// configuration. The zero value (empty Dir) caches in memory only.
type ToolCache struct {
	// Dir is the cache directory; empty disables the disk cache.
	Dir string
	// TTL is the freshness window; 0 means DefaultCacheTTL.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

type cacheFile struct {
	Connector string          `json:"connector"`
	FetchedAt time.Time       `json:"fetched_at"`
	Tools     []contract.Tool `json:"tools"`
}

// CacheKey derives a stable cache file key from a connector name and the
// parts of its configuration that identify the server.
func CacheKey(name string, identity ...string) string {
	h := sha256.New()
	for _, s := range identity {
		fmt.Fprintf(h, "%s\x00", s)
	}
	return name + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

func (c ToolCache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c ToolCache) ttl() time.Duration {
	if c.TTL > 0 {
		return c.TTL
	}
	return DefaultCacheTTL
}

func (c ToolCache) path(key string) string { return filepath.Join(c.Dir, key+".tools.json") }

// Load returns the cached list and whether it is still fresh; ok is false
// when there is no readable entry.
func (c ToolCache) Load(key string) (tools []contract.Tool, fresh, ok bool) {
	if c.Dir == "" {
		return nil, false, false
	}
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false, false
	}
	var f cacheFile
	if json.Unmarshal(b, &f) != nil {
		return nil, false, false
	}
	return f.Tools, c.now().Sub(f.FetchedAt) < c.ttl(), true
}

// Store writes the list for key.
func (c ToolCache) Store(key, connector string, tools []contract.Tool) error {
	if c.Dir == "" {
		return nil
	}
	b, err := json.MarshalIndent(cacheFile{Connector: connector, FetchedAt: c.now().UTC(), Tools: tools}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	tmp := c.path(key) + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.path(key))
}

// discovery implements the freshness rule shared by both connectors.
type discovery struct {
	cache  ToolCache
	key    string
	name   string
	static []contract.Tool
	mu     sync.Mutex
	mem    []contract.Tool
}

// tools returns the tool list: a fresh cache entry, else a live fetch
// (stored), else a stale cache entry when the fetch failed. Statically
// declared tools are merged over the discovered ones.
func (d *discovery) tools(ctx context.Context, fetch func(context.Context) ([]contract.Tool, error)) ([]contract.Tool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.mem != nil {
		return d.merge(d.mem), nil
	}
	cached, fresh, ok := d.cache.Load(d.key)
	if ok && fresh {
		d.mem = cached
		return d.merge(cached), nil
	}
	live, err := fetch(ctx)
	if err != nil {
		if ok {
			return d.merge(cached), nil
		}
		if len(d.static) > 0 {
			return d.merge(nil), nil
		}
		return nil, err
	}
	d.mem = live
	if err := d.cache.Store(d.key, d.name, live); err != nil {
		return d.merge(live), nil // a read-only cache dir must not break discovery
	}
	return d.merge(live), nil
}

// invalidate forgets the in-memory list so the next call re-applies the
// freshness rule.
func (d *discovery) invalidate() {
	d.mu.Lock()
	d.mem = nil
	d.mu.Unlock()
}

func (d *discovery) merge(found []contract.Tool) []contract.Tool {
	out := make([]contract.Tool, 0, len(found)+len(d.static))
	idx := map[string]int{}
	for _, t := range found {
		idx[t.Name] = len(out)
		out = append(out, t)
	}
	for _, s := range d.static {
		i, seen := idx[s.Name]
		if !seen {
			out = append(out, s)
			continue
		}
		if s.Description != "" {
			out[i].Description = s.Description
		}
		if len(s.InputSchema) > 0 {
			out[i].InputSchema = s.InputSchema
		}
		out[i].Mutating = out[i].Mutating || s.Mutating
	}
	return out
}
