package dashboard

import (
	"context"
	"sort"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// Skill is one skill of the catalog: its review item (status, signature,
// signals, footprint) with the store's metadata and its last fire.
type Skill struct {
	Item
	Description string     `json:"description,omitempty"`
	Author      string     `json:"author,omitempty"`
	UpdatedAt   time.Time  `json:"updated_at"`
	LastFire    *time.Time `json:"last_fire,omitempty"`
	LastStatus  string     `json:"last_status,omitempty"`
	LastTrace   string     `json:"last_trace,omitempty"`
}

// skills returns every stored skill, sorted by name. The review of a
// skill (parse, check, footprint, signature) depends only on its name and
// bytes, so it is kept by content hash and redone only for skills that
// changed; with a store that offers a version token the whole listing is
// reused while the token holds (docs/decisions.md V14).
func (d *Dashboard) skills(ctx context.Context) ([]Skill, error) {
	var token string
	if v, ok := d.o.Store.(contract.Versioner); ok {
		token, _ = v.Version(ctx)
	}
	d.cacheMu.Lock()
	if token != "" && token == d.listToken {
		out := d.list
		d.cacheMu.Unlock()
		return out, nil
	}
	items := d.items
	d.cacheMu.Unlock()

	metas, err := d.o.Store.List(ctx, contract.SkillQuery{})
	if err != nil {
		return nil, err
	}
	fresh := make(map[string]Item, len(metas))
	out := make([]Skill, 0, len(metas))
	for _, m := range metas {
		rec, err := d.o.Store.Get(ctx, m.Name)
		if err != nil || rec == nil {
			continue // removed while listing
		}
		key := rec.Name + "\x00" + rec.ContentHash
		it, ok := items[key]
		if !ok {
			it = d.item(rec.Name, []byte(rec.Body))
		}
		fresh[key] = it
		out = append(out, Skill{Item: it, Description: rec.Description, Author: rec.Author, UpdatedAt: rec.UpdatedAt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	d.cacheMu.Lock()
	d.items, d.list, d.listToken = fresh, out, token
	d.cacheMu.Unlock()
	return out, nil
}

// withFires adds each skill's last fire from the trace store (a copy:
// the cached listing is shared).
func (d *Dashboard) withFires(ctx context.Context, list []Skill) ([]Skill, error) {
	out := append([]Skill(nil), list...)
	if d.o.Traces == nil {
		return out, nil
	}
	last, err := d.o.Traces.LastFires(ctx)
	if err != nil {
		return out, err
	}
	for i := range out {
		if r, ok := last[out[i].Name]; ok {
			t := r.StartedAt
			out[i].LastFire, out[i].LastStatus, out[i].LastTrace = &t, r.Status, r.ID
		}
	}
	return out, nil
}
