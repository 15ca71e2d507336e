package skillstore

import (
	"context"
	"sort"
	"sync"

	"github.com/skillscript/skillc/eval/contract"
)

// Overlay is the skill store of a run that finds its sibling skills in the
// skill's own folder but must not write there (a read-only checkout, a
// docs folder, a shared corpus): reads come from Read, then from Target;
// writes (and status changes and deletions) go to Target only, and a skill
// written during the run is read back from Target. OnWrite, when set, is
// told each name written so the run can say where it went.
type Overlay struct {
	Read, Target contract.SkillStore
	OnWrite      func(name string)

	mu      sync.Mutex
	written map[string]bool
}

var _ contract.SkillStore = (*Overlay)(nil)

func (o *Overlay) wrote(name string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.written[name]
}

// Get returns the skill written during the run, else the folder's, else
// the store's.
func (o *Overlay) Get(ctx context.Context, name string) (*contract.SkillRecord, error) {
	if !o.wrote(name) {
		r, err := o.Read.Get(ctx, name)
		if err != nil || r != nil {
			return r, err
		}
	}
	return o.Target.Get(ctx, name)
}

// Write stores the skill in the Target store.
func (o *Overlay) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	r, err := o.Target.Write(ctx, name, body, author)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	if o.written == nil {
		o.written = map[string]bool{}
	}
	o.written[name] = true
	o.mu.Unlock()
	if o.OnWrite != nil {
		o.OnWrite(name)
	}
	return r, nil
}

// List merges both listings; a name in both is the one Get returns.
func (o *Overlay) List(ctx context.Context, q contract.SkillQuery) ([]contract.SkillMeta, error) {
	read, err := o.Read.List(ctx, q)
	if err != nil {
		return nil, err
	}
	write, err := o.Target.List(ctx, q)
	if err != nil {
		return nil, err
	}
	byName := map[string]contract.SkillMeta{}
	for _, m := range write {
		byName[m.Name] = m
	}
	for _, m := range read {
		if !o.wrote(m.Name) {
			byName[m.Name] = m
		}
	}
	out := make([]contract.SkillMeta, 0, len(byName))
	for _, m := range byName {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Delete removes the skill from the Target store (the folder is never
// changed).
func (o *Overlay) Delete(ctx context.Context, name string) error { return o.Target.Delete(ctx, name) }

// Versions returns the history of the skill Get returns.
func (o *Overlay) Versions(ctx context.Context, name string) ([]contract.SkillVersion, error) {
	if !o.wrote(name) {
		if r, err := o.Read.Get(ctx, name); err != nil || r != nil {
			if err != nil {
				return nil, err
			}
			return o.Read.Versions(ctx, name)
		}
	}
	return o.Target.Versions(ctx, name)
}

// UpdateStatus changes the status in the Target store only.
func (o *Overlay) UpdateStatus(ctx context.Context, name, status string) error {
	return o.Target.UpdateStatus(ctx, name, status)
}
