package registry

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// cacheVersion changes whenever the persisted layout or the way a record
// is derived from a package changes; a file of another version is
// ignored.
const cacheVersion = 1

// persisted is the on-disk form of the cache: the file hashes by path
// (valid while size and modification time match) and the parsed record
// of each package directory (valid while its digest matches), for one
// validation configuration.
type persisted struct {
	Version int
	Options string // the validation options the records were made with
	Hashes  []persistedStamp
	Dirs    []persistedDir
	Pkgs    []persistedPkg
}

type persistedStamp struct {
	Path  string
	Size  int64
	MTime time.Time
	Sum   string
}

type persistedDir struct {
	Path  string
	MTime time.Time
	Ents  []dirEnt
}

type persistedPkg struct {
	Dir string
	Rec *Record
}

func init() {
	// the frontmatter's YAML values (map[string]any, []any, scalars)
	gob.Register(map[string]any{})
	gob.Register([]any{})
	gob.Register(time.Time{})
}

// validationKey identifies the validation options records depend on.
func (o Options) validationKey() string { return fmt.Sprintf("%+v", o.Validation) }

// load fills the cache from file, when it holds a cache of this version
// made with the same validation options; any problem leaves the cache
// as it is (the next Refresh rebuilds what it needs).
func (c *cache) load(file, opts string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	var p persisted
	if err := gob.NewDecoder(bufio.NewReaderSize(f, 1<<16)).Decode(&p); err != nil || p.Version != cacheVersion || p.Options != opts {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range p.Hashes {
		c.hashes[s.Path] = stamp{size: s.Size, mtime: s.MTime, sum: s.Sum}
	}
	for _, d := range p.Dirs {
		c.dirs[d.Path] = dirStamp{mtime: d.MTime, ents: d.Ents}
	}
	for _, e := range p.Pkgs {
		if e.Rec != nil {
			c.pkgs[e.Dir] = e.Rec
		}
	}
}

// save writes the entries the last Refresh used (live paths and
// directories) to file atomically: a temporary file renamed over it.
// Records whose frontmatter holds values gob cannot carry are left out
// (they are parsed again next time).
func (c *cache) save(file, opts string, live map[string]bool) error {
	c.mu.Lock()
	p := persisted{Version: cacheVersion, Options: opts}
	for k, s := range c.hashes {
		if underLive(k, live) {
			p.Hashes = append(p.Hashes, persistedStamp{Path: k, Size: s.size, MTime: s.mtime, Sum: s.sum})
		}
	}
	for k, d := range c.dirs {
		if live[k] || underLive(k, live) {
			p.Dirs = append(p.Dirs, persistedDir{Path: k, MTime: d.mtime, Ents: d.ents})
		}
	}
	for k, r := range c.pkgs {
		if live[k] && plainValue(r.Frontmatter) {
			p.Pkgs = append(p.Pkgs, persistedPkg{Dir: k, Rec: r})
		}
	}
	c.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<16)
	if err := gob.NewEncoder(w).Encode(&p); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// underLive reports whether path is in one of the live package
// directories.
func underLive(path string, live map[string]bool) bool {
	for d, i := filepath.Dir(path), 0; i < 16; d, i = filepath.Dir(d), i+1 {
		if live[d] {
			return true
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return false
}

// plainValue reports whether v holds only the value types gob is told
// about (YAML maps, sequences and scalars).
func plainValue(v any) bool {
	switch x := v.(type) {
	case nil, string, bool, int, int64, uint64, float64, time.Time:
		return true
	case map[string]any:
		for _, e := range x {
			if !plainValue(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !plainValue(e) {
				return false
			}
		}
		return true
	}
	return false
}
