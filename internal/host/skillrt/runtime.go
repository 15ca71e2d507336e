// Package skillrt is the runtime side of Agent Skills: per-session active
// skills, the LLM-callable tools (skills_load, skills_unload, skills_read,
// skills_run_script) as a Go API with JSON-tagged input and output
// structs, and the composition of the instructions sent with every model
// call (<available_skills>, <active_skills>). Every tool resolves skills
// through one registry.Registry.
//
// The MCP exposure lives in skillc serve, which registers these methods
// as tools; errors returned here are written for the model to act on.
package skillrt

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/internal/host/registry"
)

// Options configure a runtime. The zero value uses the defaults.
type Options struct {
	// MaxActive caps the skills active in one session (default 8).
	MaxActive int
	// ReadLimit caps the bytes skills_read returns (default 1 MiB).
	ReadLimit int64
	// CatalogBudget caps the bytes of <available_skills> (default 16 KiB,
	// about 2% of a 200k-token context window).
	CatalogBudget int
	// Scripts configures skills_run_script; it is off unless Enabled.
	Scripts ScriptOptions
}

// Defaults.
const (
	DefaultMaxActive     = 8
	DefaultReadLimit     = 1 << 20
	DefaultCatalogBudget = 16 << 10
)

func (o Options) maxActive() int {
	if o.MaxActive > 0 {
		return o.MaxActive
	}
	return DefaultMaxActive
}

func (o Options) readLimit() int64 {
	if o.ReadLimit > 0 {
		return o.ReadLimit
	}
	return DefaultReadLimit
}

func (o Options) catalogBudget() int {
	if o.CatalogBudget > 0 {
		return o.CatalogBudget
	}
	return DefaultCatalogBudget
}

// Runtime holds the sessions of one host over one registry.
type Runtime struct {
	reg  *registry.Registry
	opts Options

	mu       sync.Mutex
	sessions map[string]*Session
}

// New returns a runtime over reg.
func New(reg *registry.Registry, opts Options) *Runtime {
	return &Runtime{reg: reg, opts: opts, sessions: map[string]*Session{}}
}

// Registry returns the registry behind every tool.
func (rt *Runtime) Registry() *registry.Registry { return rt.reg }

// Active is one loaded skill of a session with the digest it had when it
// was loaded.
type Active struct {
	Name     string    `json:"name"`
	ID       string    `json:"id"`
	Digest   string    `json:"digest"`
	LoadedAt time.Time `json:"loaded_at"`
}

// Session is the state of one conversation: its active skills, in load
// order (most recent last), and the notices of skills unloaded because
// they changed on disk.
type Session struct {
	ID      string
	Active  []Active
	Revoked []string
}

// EndSession forgets a session's state (call it when the conversation or
// the MCP session ends).
func (rt *Runtime) EndSession(id string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	delete(rt.sessions, id)
}

// session returns the session called id, creating it.
func (rt *Runtime) session(id string) *Session {
	s, ok := rt.sessions[id]
	if !ok {
		s = &Session{ID: id}
		rt.sessions[id] = s
	}
	return s
}

// Snapshot returns a copy of a session's state (an empty one when it does
// not exist yet), after dropping skills whose content changed.
func (rt *Runtime) Snapshot(id string) Session {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := rt.session(id)
	rt.revalidate(s)
	return Session{ID: s.ID, Active: append([]Active(nil), s.Active...), Revoked: append([]string(nil), s.Revoked...)}
}

// takeState is Snapshot that also clears the revocation notices, which
// are shown once.
func (rt *Runtime) takeState(id string) Session {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := rt.session(id)
	rt.revalidate(s)
	out := Session{ID: s.ID, Active: append([]Active(nil), s.Active...), Revoked: s.Revoked}
	s.Revoked = nil
	return out
}

// revalidate unloads active skills that disappeared or whose digest
// changed since they were loaded: what the model agreed to use is no
// longer what is on disk, so it must load the new version explicitly.
func (rt *Runtime) revalidate(s *Session) {
	kept := s.Active[:0]
	for _, a := range s.Active {
		rec, ok := rt.reg.Lookup(a.ID)
		switch {
		case !ok || !rec.Visible():
			s.Revoked = append(s.Revoked, fmt.Sprintf("skill %s is no longer available and was unloaded", a.Name))
		case rec.Digest != a.Digest:
			s.Revoked = append(s.Revoked, fmt.Sprintf("skill %s changed on disk and was unloaded; call skills_load to use the new version", a.Name))
		default:
			kept = append(kept, a)
		}
	}
	s.Active = kept
}

// resolve looks up a skill by name or origin-qualified id with an error
// the model can act on: why a known name cannot be loaded, or which names
// exist.
func (rt *Runtime) resolve(name string) (*registry.Record, error) {
	if rec, ok := rt.reg.Lookup(name); ok {
		return rec, nil
	}
	for _, rec := range rt.reg.All() {
		if rec.Name != name {
			continue
		}
		switch {
		case rec.Status == "Disabled":
			return nil, fmt.Errorf("skill %q is disabled", name)
		case !rec.Loadable:
			return nil, fmt.Errorf("skill %q cannot be loaded (invalid, or its name is claimed twice in origin %s); run skillc skills validate", name, rec.Origin)
		}
	}
	names := rt.reg.Names()
	return nil, fmt.Errorf("unknown skill %q; available skills: %s", name, strings.Join(limitList(names, 20), ", "))
}

// limitList returns at most n items, with a count of the rest.
func limitList(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	return append(append([]string(nil), items[:n]...), fmt.Sprintf("and %d more", len(items)-n))
}

// activeRecord returns the active package skill a read or script call
// addresses: name when given (it must be active), else the most recently
// loaded one.
func (rt *Runtime) activeRecord(sessionID, name string) (*registry.Record, error) {
	rt.mu.Lock()
	s := rt.session(sessionID)
	rt.revalidate(s)
	active := append([]Active(nil), s.Active...)
	rt.mu.Unlock()
	if len(active) == 0 {
		return nil, fmt.Errorf("no skill is loaded in this session; call skills_load first")
	}
	pick := active[len(active)-1]
	if name != "" {
		found := false
		for _, a := range active {
			if a.Name == name || a.ID == name {
				pick, found = a, true
			}
		}
		if !found {
			return nil, fmt.Errorf("skill %q is not loaded; loaded skills: %s; call skills_load first", name, strings.Join(activeNames(active), ", "))
		}
	}
	rec, ok := rt.reg.Lookup(pick.ID)
	if !ok {
		return nil, fmt.Errorf("skill %q is no longer available", pick.Name)
	}
	return rec, nil
}

func activeNames(as []Active) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	sort.Strings(out)
	return out
}
