package registry

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
)

// Options configure a registry. The zero value has no roots.
type Options struct {
	Roots []Root
	// MaxDepth and MaxDirs bound the scan of each root (defaults 6 and
	// 2000).
	MaxDepth, MaxDirs int
	// Validation is how packages are validated (default compat).
	Validation agentskills.Options
	// External are records from elsewhere (origin "mcp:<server>"); they
	// never shadow a local skill.
	External []*Record
	// CacheFile, when set, persists the file hashes and parsed packages
	// between processes (keyed by path, size and modification time, and
	// by package digest), so that a new process indexing an unchanged
	// catalog reads and parses nothing again.
	CacheFile string
}

func (o Options) maxDepth() int {
	if o.MaxDepth > 0 {
		return o.MaxDepth
	}
	return DefaultMaxDepth
}

func (o Options) maxDirs() int {
	if o.MaxDirs > 0 {
		return o.MaxDirs
	}
	return DefaultMaxDirs
}

// Registry is the catalog of skills from every root. It is safe for
// concurrent use; Refresh replaces the catalog atomically.
type Registry struct {
	opts Options

	refreshing sync.Mutex // serialises Refresh
	mu         sync.RWMutex
	records    []*Record // every record, sorted by name then rank
	byName     map[string]*Record
	byID       map[string]*Record
	problems   ast.Diagnostics
	dirs       []string
	truncated  []string
	gen        uint64
	cache      *cache
	loaded     bool // CacheFile was read
}

// New returns a registry over opts; call Refresh to index it.
func New(opts Options) *Registry {
	return &Registry{opts: opts, cache: newCache()}
}

// Refresh rescans every root and rebuilds the catalog. Files whose size
// and modification time did not change are not hashed again. The
// generation increases when any digest, location or the set of skills
// changed.
func (r *Registry) Refresh() {
	r.refreshing.Lock()
	defer r.refreshing.Unlock()
	if r.opts.CacheFile != "" && !r.loaded {
		r.cache.load(r.opts.CacheFile, r.opts)
		r.loaded = true
	}
	sr := scan(r.opts, r.cache)
	recs, more := r.index(sr.cands)
	sr.closeBases()
	r.persist(sr)
	probs := append(sr.probs, more...)
	for _, e := range r.opts.External {
		cp := *e
		cp.rank, cp.ID = originRank(cp.Origin)*1000, cp.Origin+"/"+cp.Name
		recs = append(recs, &cp)
	}
	probs = append(probs, resolve(recs)...)
	r.install(recs, probs, sr)
}

// index builds the records of the candidates on every core, keeping
// their order. Workers take the next candidate from a shared counter
// rather than a channel: over a warm cache a candidate costs a few
// microseconds, and a channel hand-off per candidate cost more than that
// in scheduler wake-ups.
func (r *Registry) index(cands []candidate) ([]*Record, ast.Diagnostics) {
	recs := make([]*Record, len(cands))
	probs := make([]ast.Diagnostics, len(cands))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(cands), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(cands) {
					return
				}
				if cands[i].kind == KindPackage {
					recs[i], probs[i] = indexPackage(cands[i], r.opts, r.cache)
				} else {
					recs[i], probs[i] = indexScript(cands[i])
				}
			}
		}()
	}
	wg.Wait()
	var out []*Record
	var all ast.Diagnostics
	for i, rec := range recs {
		all = append(all, probs[i]...)
		if rec != nil {
			rec.ID = rec.Origin + "/" + rec.Name
			out = append(out, rec)
		}
	}
	return out, all
}

// persist saves the cache when this Refresh changed it. A cache that
// cannot be written only costs the next process time, so the error is
// dropped.
func (r *Registry) persist(sr scanResult) {
	if r.opts.CacheFile == "" {
		return
	}
	r.cache.mu.Lock()
	dirty := r.cache.dirty
	r.cache.dirty = false
	r.cache.mu.Unlock()
	if !dirty {
		return
	}
	live, scanned := map[string]bool{}, make(map[string]bool, len(sr.dirs))
	for _, c := range sr.cands {
		if c.kind == KindPackage {
			abs, _ := filepath.Abs(c.path)
			live[abs] = true
		}
	}
	for _, d := range sr.dirs {
		scanned[d] = true
	}
	_ = r.cache.save(r.opts.CacheFile, r.opts.validationKey(), live, scanned)
}

// install swaps in a new catalog.
func (r *Registry) install(recs []*Record, probs ast.Diagnostics, sr scanResult) {
	byName, byID := make(map[string]*Record, len(recs)), make(map[string]*Record, len(recs))
	for _, rec := range recs {
		// an unloadable record never takes the id of a loadable one
		if prev, ok := byID[rec.ID]; !ok || !prev.Loadable {
			byID[rec.ID] = rec
		}
		if rec.Visible() {
			byName[rec.Name] = rec
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if changed(r.records, recs) {
		r.gen++
	}
	r.records, r.byName, r.byID, r.problems, r.dirs, r.truncated = recs, byName, byID, probs, sr.dirs, sr.truncated
}

// changed reports whether two catalogs differ in ids, locations or digests.
func changed(a, b []*Record) bool {
	if len(a) != len(b) {
		return true
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Digest != b[i].Digest || a[i].Location != b[i].Location || a[i].Visible() != b[i].Visible() {
			return true
		}
	}
	return false
}

// resolve sorts recs, marks same-origin name collisions and shadowed
// skills, and returns the problems.
func resolve(recs []*Record) ast.Diagnostics {
	sort.SliceStable(recs, func(i, j int) bool {
		if recs[i].Name != recs[j].Name {
			return recs[i].Name < recs[j].Name
		}
		if recs[i].rank != recs[j].rank {
			return recs[i].rank < recs[j].rank
		}
		return recs[i].Location < recs[j].Location
	})
	var probs ast.Diagnostics
	for i := 0; i < len(recs); {
		j := i
		for j < len(recs) && recs[j].Name == recs[i].Name {
			j++
		}
		probs = append(probs, resolveName(recs[i:j])...)
		i = j
	}
	return probs
}

// resolveName handles the records sharing one name (sorted by rank).
func resolveName(group []*Record) ast.Diagnostics {
	if len(group) == 1 {
		return nil // nothing to collide with or shadow (most names)
	}
	var probs ast.Diagnostics
	// Only records that could load claim their name: a SKILL.md without
	// frontmatter, name or description reports its own error and neither
	// collides with nor shadows a loadable skill of the same name.
	byOrigin := map[string][]*Record{}
	for _, rec := range group {
		if rec.Loadable {
			byOrigin[rec.Origin] = append(byOrigin[rec.Origin], rec)
		}
	}
	for _, same := range byOrigin {
		if len(same) < 2 {
			continue
		}
		for _, rec := range same {
			rec.Loadable = false
			probs = append(probs, inFile(rec.Location, ast.Errorf(agentskills.RuleNameCollision, ast.Range{},
				"%s %q collides with %s in origin %s; rename one of them", rec.Kind, rec.Name, others(same, rec), rec.Origin)))
		}
	}
	var winner *Record
	for _, rec := range group {
		if !rec.Loadable || rec.Status == "Disabled" {
			continue
		}
		if winner == nil {
			winner = rec
			continue
		}
		rec.ShadowedBy = winner.ID
		probs = append(probs, inFile(rec.Location, &ast.Diagnostic{Severity: ast.Info, Rule: agentskills.RuleShadowed,
			Message: "skill " + rec.ID + " is shadowed by " + winner.ID + " (" + winner.Location + ")"}))
	}
	return probs
}

// others lists the locations of the records in same other than rec.
func others(same []*Record, rec *Record) string {
	var out []string
	for _, o := range same {
		if o != rec {
			out = append(out, string(o.Kind)+" "+o.Location)
		}
	}
	return strings.Join(out, ", ")
}

// List returns the visible skills sorted by name.
func (r *Registry) List() []*Record {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Record, 0, len(r.byName))
	for _, rec := range r.records {
		if r.byName[rec.Name] == rec {
			out = append(out, rec)
		}
	}
	return out
}

// All returns every record, shadowed and unloadable ones included.
func (r *Registry) All() []*Record {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]*Record(nil), r.records...)
}

// Names returns the visible names, sorted (for tool enums).
func (r *Registry) Names() []string {
	recs := r.List()
	out := make([]string, len(recs))
	for i, rec := range recs {
		out[i] = rec.Name
	}
	return out
}

// Lookup returns the visible skill called name, or the record with the
// origin-qualified id name ("user/report"), shadowed ones included.
func (r *Registry) Lookup(name string) (*Record, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if rec, ok := r.byName[name]; ok {
		return rec, true
	}
	rec, ok := r.byID[name]
	return rec, ok && rec.Loadable
}

// Problems returns the registry-level problems of the last Refresh.
func (r *Registry) Problems() ast.Diagnostics {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append(ast.Diagnostics(nil), r.problems...)
}

// Truncated returns the roots whose last scan stopped at the directory
// limit (Options.MaxDirs): skills below them are missing from the
// catalog. It is empty when every root was scanned completely.
func (r *Registry) Truncated() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.truncated...)
}

// TruncationWarning returns the warning to show when a scan was cut
// short, or "" when none was.
func (r *Registry) TruncationWarning() string {
	roots := r.Truncated()
	if len(roots) == 0 {
		return ""
	}
	return fmt.Sprintf("the skill catalog is incomplete: the scan of %s stopped at the limit of %d directories per root; skills below were not indexed (raise it with --max-scan-dirs, SKILLSCRIPT_SKILLS_MAX_SCAN_DIRS or max_scan_dirs)",
		strings.Join(roots, ", "), r.opts.maxDirs())
}

// Generation counts the refreshes that changed the catalog.
func (r *Registry) Generation() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.gen
}

// Dirs returns the directories the last scan visited.
func (r *Registry) Dirs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.dirs...)
}
