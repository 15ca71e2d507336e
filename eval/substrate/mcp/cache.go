package mcp

import (
	"context"
	"sync"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/toolcache"
)

// discovery implements the freshness rule shared by both connectors.
type discovery struct {
	cache  toolcache.Cache
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
		if len(s.OutputSchema) > 0 {
			out[i].OutputSchema = s.OutputSchema
		}
		out[i].Mutating = out[i].Mutating || s.Mutating
		out[i].ReadOnly = s.ReadOnly
	}
	return out
}

// refresh fetches the list live whatever the cache holds and stores it;
// on failure the in-memory and on-disk lists are left as they were.
func (d *discovery) refresh(ctx context.Context, fetch func(context.Context) ([]contract.Tool, error)) ([]contract.Tool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	live, err := fetch(ctx)
	if err != nil {
		return nil, err
	}
	d.mem = live
	_ = d.cache.Store(d.key, d.name, live) // a read-only cache dir must not break discovery
	return live, nil
}

// cached returns the on-disk entry of this connector and its freshness.
func (d *discovery) cached() (tools []contract.Tool, fresh, ok bool) {
	return d.cache.Load(d.key)
}
