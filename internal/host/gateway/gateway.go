// Package gateway is the agent-facing skill gateway of ADR-001: discover
// (ranked and explained), list, attach (validated against real targets)
// and run over the one registry of SKILL.md packages and skillscripts.
// The CLI (skillc skills discover|list|attach|run), the HTTP endpoints
// under /gateway/ and the MCP tools skills_discover, skills_list,
// skills_attach and skills_run are thin adapters over this package.
//
// Every rule is enforced at call time: discover leaves sidecars out
// unless asked for, run refuses attach-only skills, attach refuses
// direct-only skills and target types the skill does not declare, and a
// skill whose classification has errors is neither run nor attached.
package gateway

import (
	"context"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/trace"
)

// Options configure a Gateway.
type Options struct {
	Registry *registry.Registry // required
	Config   Config             // zero value: DefaultConfig()
	// Traces resolves run, output and transcript targets; nil leaves those
	// target types unavailable.
	Traces *trace.Store
	// ArtifactRoot is the directory artifact targets are resolved in
	// (through os.Root); empty leaves artifact targets unavailable.
	ArtifactRoot string
	// Executor runs skillscripts; nil makes run and attach of a
	// skillscript refuse with not_runnable.
	Executor Executor
	// Wired reports whether a connector is wired; nil treats every
	// connector as wired.
	Wired func(connector string) bool
	// Clock is the time source (attached_at); nil is time.Now.
	Clock func() time.Time
	// IndexCache, when set, is the file the lexical index is persisted
	// in, keyed by the catalog's content digests: a new process over an
	// unchanged catalog loads it instead of analysing every skill.
	IndexCache string
	// Embedder, when set, adds the semantic stage: discover fuses the
	// lexical ranking with a dense one (cosine of embeddings) by
	// reciprocal rank fusion. Off (nil) by default.
	Embedder Embedder
	// VectorCache, when set, is the file the semantic stage's skill
	// vectors are persisted in, by content digest and name, for an
	// [Identified] embedder: a new process embeds only the skills that
	// changed (and the intent).
	VectorCache string
}

// Gateway is the gateway core. It is safe for concurrent use.
type Gateway struct {
	reg   *registry.Registry
	cfg   Config
	tr    *trace.Store
	root  string
	exec  Executor
	wired func(string) bool
	now   func() time.Time
	cache string
	embed Embedder

	vecMu   sync.Mutex
	vecs    map[string][]float32 // embeddings by digest and name
	vecFile string

	mu      sync.Mutex
	idx     *index
	terms   map[string]*docTerms // analysed fields by digest
	byID    []*registry.Record
	byIDGen uint64
}

// sortRecords orders records by id.
func sortRecords(recs []*registry.Record) {
	sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
}

// New returns a gateway over o.
func New(o Options) *Gateway {
	g := &Gateway{reg: o.Registry, cfg: o.Config, tr: o.Traces, root: o.ArtifactRoot, exec: o.Executor, wired: o.Wired, now: o.Clock, cache: o.IndexCache, embed: o.Embedder, vecFile: o.VectorCache}
	if g.cfg.MaxLimit == 0 {
		g.cfg = DefaultConfig()
	}
	if g.now == nil {
		g.now = time.Now
	}
	return g
}

// Close releases the lexical index.
func (g *Gateway) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.idx.close()
	g.idx = nil
	return nil
}

// Config returns the gateway's configuration.
func (g *Gateway) Config() Config { return g.cfg }

// search runs the lexical stage on the index of the current registry
// generation, rebuilding it first when the catalog changed. Searches are
// serialised: the in-memory database has one connection.
func (g *Gateway) search(ctx context.Context, terms []string) ([]hit, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gen := g.reg.Generation()
	if g.idx == nil || g.idx.gen != gen {
		ix, err := g.openIndex(ctx, g.reg.List(), gen)
		if err != nil {
			return nil, err
		}
		g.idx.close()
		g.idx = ix
	}
	return g.idx.search(ctx, terms, g.cfg.MaxCandidates)
}

// openIndex loads the persisted index of recs when there is one for
// this exact catalog, else builds it (and persists it when a cache file
// is configured; a cache that cannot be written only costs time).
func (g *Gateway) openIndex(ctx context.Context, recs []*registry.Record, gen uint64) (*index, error) {
	if g.cache == "" {
		return buildIndex(ctx, recs, gen, g.cfg.Weights, g.docTerms)
	}
	fp := fingerprint(recs)
	if ix, err := loadIndex(g.cache, fp, recs, gen, g.cfg.Weights); err == nil {
		return ix, nil
	}
	ix, err := buildIndex(ctx, recs, gen, g.cfg.Weights, g.docTerms)
	if err == nil {
		_ = saveIndex(g.cache, fp, ix)
	}
	return ix, err
}

// docTerms returns the analysed fields of rec, from the cache when a
// skill with the same digest was analysed before.
func (g *Gateway) docTerms(rec *registry.Record) *docTerms {
	key := rec.Digest
	if key == "" {
		return analyze(rec)
	}
	if d, ok := g.terms[key]; ok {
		return d
	}
	if g.terms == nil {
		g.terms = map[string]*docTerms{}
	}
	d := analyze(rec)
	g.terms[key] = d
	return d
}

// artifactRoot opens the artifact root.
func (g *Gateway) artifactRoot() (*os.Root, error) { return os.OpenRoot(g.root) }
