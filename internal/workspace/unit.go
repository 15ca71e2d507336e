package workspace

import (
	"os"
	"slices"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/syntax"
)

// Unit is one compiled skill: the tree and the parser's diagnostics, the
// checker's facts, the typed headers, the content hash and, from
// Env.Compile, the diagnostics of the whole analysis. The effect
// footprint and the classification are computed on first use. A Unit is
// shared: callers read it and never change the tree.
type Unit struct {
	// Path is the name the skill was compiled under (a file path, or a
	// store name such as "name.skill.md").
	Path string
	Src  []byte
	File *ast.File
	// Parsed are the parser's diagnostics; Info the checker's facts.
	Parsed ast.Diagnostics
	Info   *check.Info
	// Skill is the typed view of the headers the skill store and the
	// cross-skill rules use (name, status, type, returns and where they
	// are declared).
	Skill lint.SkillInfo
	// Diags are the parser's, checker's and linter's diagnostics under the
	// environment's context and options (Env.Compile only; nil from
	// Parse).
	Diags ast.Diagnostics
	// Linted reports that Diags were computed.
	Linted bool

	// hash is the content hash when the unit was made with it (a cache
	// key); Hash computes it otherwise.
	hash      string
	hashOnce  sync.Once
	mut       effects.Mutating
	fpOnce    sync.Once
	footprint *effects.Footprint
	clOnce    sync.Once
	class     *classification.Classification
	classDs   ast.Diagnostics
}

// Hash is the hex SHA-256 of Src (contract.ContentHash), the cache key
// together with Path. A unit compiled without a cache (a one-shot check)
// computes it on first use: check never reads it (decision AK6).
func (u *Unit) Hash() string {
	u.hashOnce.Do(func() {
		if u.hash == "" {
			u.hash = contract.ContentHashOf(u.Src)
		}
	})
	return u.hash
}

// Footprint is every effectful op of the skill at every depth, with the
// mutation classification of the environment's connectors when the unit
// came from Env.Compile (the name heuristic otherwise).
func (u *Unit) Footprint() *effects.Footprint {
	u.fpOnce.Do(func() { u.footprint = effects.Of(u.File, u.Info, u.mut) })
	return u.footprint
}

// Classification is the skill's # Classification: (nil without one) and
// the problems of that header.
func (u *Unit) Classification() (*classification.Classification, ast.Diagnostics) {
	u.clOnce.Do(func() { u.class, u.classDs = classification.Of(u.File) })
	return u.class, u.classDs
}

// ParsedCopy returns copies of the parser's diagnostics, for a lint run:
// the linter sets severities and targets on the diagnostics it is given,
// and a shared unit's stay as parsed.
func (u *Unit) ParsedCopy() ast.Diagnostics {
	own := make(ast.Diagnostics, len(u.Parsed))
	copies := make([]ast.Diagnostic, len(u.Parsed)) // one allocation for the copies
	for i, d := range u.Parsed {
		copies[i] = *d
		own[i] = &copies[i]
	}
	return own
}

// HasErrors reports whether the parser reported an error.
func (u *Unit) HasErrors() bool { return u.Parsed.HasErrors() }

// unitCacheSize and unitCacheBytes bound each cache (units, and bytes
// of source: a tree takes some tens of times its source): a long-running
// host or language server keeps the skills it works on, not every tree it
// ever saw.
const (
	unitCacheSize  = 512
	unitCacheBytes = 4 << 20
)

// unitCache holds the newest unit of each path, found again while the
// content hash is unchanged.
type unitCache struct {
	mu    sync.Mutex
	units map[string]*Unit
	order []string // insertion order, for eviction
	bytes int      // source bytes of the units held
}

func newUnitCache() *unitCache { return &unitCache{units: map[string]*Unit{}} }

func (c *unitCache) get(path, hash string) *Unit {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u := c.units[path]; u != nil && u.hash == hash {
		return u
	}
	return nil
}

// holds reports whether a unit of path is cached, whatever its content.
func (c *unitCache) holds(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.units[path] != nil
}

func (c *unitCache) put(u *Unit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.units[u.Path]; ok {
		c.bytes -= len(prev.Src)
	} else {
		c.order = append(c.order, u.Path)
	}
	c.units[u.Path] = u
	c.bytes += len(u.Src)
	for (len(c.units) > unitCacheSize || c.bytes > unitCacheBytes) && len(c.order) > 1 {
		old := c.order[0]
		c.order = c.order[1:]
		if v, ok := c.units[old]; ok {
			c.bytes -= len(v.Src)
			delete(c.units, old)
		}
	}
}

func (c *unitCache) forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.units[path]; ok {
		c.bytes -= len(v.Src)
		delete(c.units, path)
		c.order = slices.DeleteFunc(c.order, func(p string) bool { return p == path })
	}
}

// parsed is the process-wide cache of Parse: trees and facts do not
// depend on the environment.
var parsed = newUnitCache()

// Parse compiles src under path without an environment: tree, parser
// diagnostics, checker facts, typed headers, hash. A source already
// compiled under the same path with the same content is not parsed
// again. The CLI commands that handle a skill outside any lint context
// (approve, test, traces) and the host's store readers use it.
func Parse(path string, src []byte) *Unit {
	return parse(path, src, contract.ContentHashOf(src), true)
}

// parse is Parse; keep false leaves a new unit out of the cache.
func parse(path string, src []byte, hash string, keep bool) *Unit {
	u, _ := parseUnit(path, src, hash, keep)
	return u
}

// parseUnit is parse; fresh reports a unit made by this call and left
// out of the cache (keep false), which the caller may complete in place
// rather than copy (one Unit per compiled file, not two). An empty hash
// means the caller knows the cache holds nothing under path: the unit
// hashes its source when asked.
func parseUnit(path string, src []byte, hash string, keep bool) (u *Unit, fresh bool) {
	if hash != "" {
		if u := parsed.get(path, hash); u != nil {
			return u, false
		}
	}
	f, ds := syntax.Parse(path, src)
	u = &Unit{Path: path, Src: src, hash: hash, File: f, Parsed: ds, Info: check.Check(f), Skill: lint.SkillInfoFrom(path, f)}
	if keep {
		parsed.put(u)
		return u, false
	}
	return u, true
}

// CompileFile reads the file at path and compiles it (Compile).
func (e *Env) CompileFile(path string) (*Unit, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return e.Compile(path, src), nil
}

// Compile compiles one skill of this environment: Parse plus the whole
// analysis (checker and linter diagnostics under the environment's lint
// context and options, as Check gives them). A source Parse has already
// compiled is not parsed again. With LoadOptions.CacheUnits the unit is
// also cached, per environment by path and content hash, so a changed
// file is compiled again; Forget drops a path (a deleted or renamed
// file). Without it (the one-shot CLI), nothing is kept: checking a
// folder of thousands of skills holds no trees.
func (e *Env) Compile(path string, src []byte) *Unit {
	c := e.units
	// Without a cache of its own and with nothing of path in the
	// process-wide one (a one-shot check), no lookup needs the hash.
	var hash string
	if c != nil || parsed.holds(path) {
		hash = contract.ContentHashOf(src)
	}
	if c != nil {
		if u := c.get(path, hash); u != nil {
			return u
		}
	}
	p, fresh := parseUnit(path, src, hash, c != nil)
	u := p
	if !fresh {
		// a unit of the process-wide cache is shared: the environment's
		// analysis goes into a unit of its own
		u = &Unit{Path: p.Path, Src: p.Src, hash: p.Hash(), File: p.File, Parsed: p.Parsed, Info: p.Info, Skill: p.Skill}
	}
	u.mut = e.Mutating()
	u.Diags, u.Linted = e.lintUnit(path, p), true
	if c != nil {
		c.put(u)
	}
	return u
}

// Forget drops the cached units of path (a deleted or renamed file).
func (e *Env) Forget(path string) {
	if e.units != nil {
		e.units.forget(path)
	}
	ForgetParsed(path)
}

// ForgetParsed drops the process-wide parse of path ([Parse]'s cache),
// for a file changed or deleted on disk: the cache is keyed by content,
// so this frees memory early rather than changing any result.
func ForgetParsed(path string) { parsed.forget(path) }

// derivedCache is the unit cache of an environment derived from one with
// a cache (units depend on the lint context, so it starts empty).
func (e *Env) derivedCache() *unitCache {
	if e.units == nil {
		return nil
	}
	return newUnitCache()
}
