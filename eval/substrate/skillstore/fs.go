package skillstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// Ext is the skill source file extension.
const Ext = ".skill.md"

// FS is a contract.SkillStore over a directory of *.skill.md files. A skill
// is found by its # Skill: header (or, without one, its file name). Version
// history and authorship live in JSON sidecars under <dir>/.versions.
type FS struct {
	dir string
	now func() time.Time
	mu  sync.Mutex
	// idx is the name index of the last full scan, reused by Get while
	// the directory itself is unchanged (idxKey); see cachedIndex.
	idx    map[string]entry
	idxKey dirKey
}

// dirKey identifies one state of the directory entry list: adding,
// removing or renaming a file in it (every write of the store is a
// rename) moves the directory's modification time.
type dirKey struct {
	mod   int64
	size  int64
	inode uint64
}

var (
	_ contract.SkillStore = (*FS)(nil)
	_ contract.Versioner  = (*FS)(nil)
)

// NewFS returns a store over dir, creating it when needed. now may be nil.
func NewFS(dir string, now func() time.Time) (*FS, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("skill store: %w", err)
	}
	if now == nil {
		now = time.Now
	}
	return &FS{dir: dir, now: now}, nil
}

// Dir returns the store's directory.
func (s *FS) Dir() string { return s.dir }

// sidecar is the per-skill history file.
type sidecar struct {
	CreatedAt time.Time     `json:"created_at"`
	Versions  []sideVersion `json:"versions"`
}

type sideVersion struct {
	Version     string    `json:"version"`
	ContentHash string    `json:"content_hash"`
	Status      string    `json:"status"`
	Author      string    `json:"author,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
}

// entry is one skill file found in the directory. body is the content
// read by the scan that found it (nil in the cached index).
type entry struct {
	name, path string
	mod        time.Time
	size       int64
	body       []byte
}

func (s *FS) dirKey() (dirKey, bool) {
	fi, err := os.Stat(s.dir)
	if err != nil {
		return dirKey{}, false
	}
	return dirKey{mod: fi.ModTime().UnixNano(), size: fi.Size(), inode: inode(fi)}, true
}

// scan lists the skill files by skill name, reading each one, and keeps
// the result as the index Get reuses.
func (s *FS) scan() (map[string]entry, error) {
	key, keyOK := s.dirKey()
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("skill store: %w", err)
	}
	out := map[string]entry{}
	for _, de := range des {
		if de.IsDir() || !strings.HasSuffix(de.Name(), Ext) {
			continue
		}
		e, ok := s.entryFor(de)
		if ok {
			if prev, dup := out[e.name]; !dup || e.path < prev.path {
				out[e.name] = e
			}
		}
	}
	s.idx = nil
	if keyOK {
		s.idx, s.idxKey = make(map[string]entry, len(out)), key
		for n, e := range out {
			e.body = nil
			s.idx[n] = e
		}
	}
	return out, nil
}

// cachedIndex returns the index of the last scan when the directory's
// entry list has not changed since, else nil.
func (s *FS) cachedIndex() map[string]entry {
	if s.idx == nil {
		return nil
	}
	if key, ok := s.dirKey(); !ok || key != s.idxKey {
		s.idx = nil
	}
	return s.idx
}

// invalidate drops the cached index after a write of the store.
func (s *FS) invalidate() { s.idx = nil }

func (s *FS) entryFor(de fs.DirEntry) (entry, bool) {
	path := filepath.Join(s.dir, de.Name())
	fi, err := de.Info()
	if err != nil {
		return entry{}, false
	}
	body, err := os.ReadFile(path)
	if err != nil {
		return entry{}, false
	}
	name := nameOf(de.Name(), body)
	return entry{name: name, path: path, mod: fi.ModTime(), size: fi.Size(), body: body}, true
}

func (s *FS) sidecarPath(name string) string {
	return filepath.Join(s.dir, ".versions", name+".json")
}

func (s *FS) readSidecar(name string) sidecar {
	var sc sidecar
	if b, err := os.ReadFile(s.sidecarPath(name)); err == nil {
		json.Unmarshal(b, &sc) // a corrupt sidecar only loses history
	}
	return sc
}

func (s *FS) writeSidecar(name string, sc sidecar) error {
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return err
	}
	return atomicWrite(s.sidecarPath(name), b)
}

// Get returns the named skill or nil.
func (s *FS) Get(ctx context.Context, name string) (*contract.SkillRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.get(name)
}

// get finds name through the cached index when the directory is
// unchanged and the file found still names that skill; anything else
// (a miss, a vanished file, a header edited in place) falls back to a
// full scan, so the answer is the one a fresh scan gives.
func (s *FS) get(name string) (*contract.SkillRecord, error) {
	if idx := s.cachedIndex(); idx != nil {
		if e, ok := idx[name]; ok {
			b, err := os.ReadFile(e.path)
			if err == nil && nameOf(filepath.Base(e.path), b) == name {
				if fi, err := os.Stat(e.path); err == nil {
					e.mod, e.size = fi.ModTime(), fi.Size()
					return s.record(e, string(b)), nil
				}
			}
		}
	}
	idx, err := s.scan()
	if err != nil {
		return nil, err
	}
	e, ok := idx[name]
	if !ok {
		return nil, nil
	}
	return s.load(e)
}

// nameOf is the skill name of a file: its # Skill: header, else the
// file name without the extension.
func nameOf(base string, body []byte) string {
	if n := Headers(string(body))["Skill"]; n != "" {
		return n
	}
	return strings.TrimSuffix(base, Ext)
}

func (s *FS) load(e entry) (*contract.SkillRecord, error) {
	if e.body != nil {
		return s.record(e, string(e.body)), nil
	}
	b, err := os.ReadFile(e.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skill store: %w", err)
	}
	return s.record(e, string(b)), nil
}

func (s *FS) record(e entry, body string) *contract.SkillRecord {
	in, _ := describe(body) // an invalid status on disk reads as Draft
	hash := contract.ContentHash(body)
	sc := s.readSidecar(e.name)
	r := &contract.SkillRecord{
		Name: e.name, Body: body, Status: in.Status, Description: in.Description, Type: in.Type,
		ContentHash: hash, Version: contract.VersionOf(hash), CreatedAt: sc.CreatedAt, UpdatedAt: e.mod.UTC(),
	}
	if n := len(sc.Versions); n > 0 {
		r.Author = sc.Versions[n-1].Author
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = r.UpdatedAt
	}
	return r
}

// Write stores body under name.
func (s *FS) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	in, err := checkBody(name, body)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, err := s.scan()
	if err != nil {
		return nil, err
	}
	e, exists := idx[name]
	if !exists {
		e = entry{name: name, path: filepath.Join(s.dir, name+Ext)}
	}
	if err := s.persist(e, body, in.Status, author); err != nil {
		return nil, err
	}
	s.invalidate()
	return s.get(name)
}

func (s *FS) persist(e entry, body, status, author string) error {
	hash := contract.ContentHash(body)
	sc := s.readSidecar(e.name)
	if n := len(sc.Versions); n > 0 && sc.Versions[n-1].ContentHash == hash {
		return nil
	}
	if err := atomicWrite(e.path, []byte(body)); err != nil {
		return fmt.Errorf("skill store: write %s: %w", e.name, err)
	}
	now := s.now().UTC()
	if sc.CreatedAt.IsZero() {
		sc.CreatedAt = now
	}
	sc.Versions = append(sc.Versions, sideVersion{Version: contract.VersionOf(hash), ContentHash: hash, Status: status, Author: author, CreatedAt: now})
	return s.writeSidecar(e.name, sc)
}

// List returns matching skills sorted by name.
func (s *FS) List(ctx context.Context, q contract.SkillQuery) ([]contract.SkillMeta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, err := s.scan()
	if err != nil {
		return nil, err
	}
	out := []contract.SkillMeta{}
	for _, name := range sortedNames(idx) {
		r, err := s.load(idx[name])
		if err != nil {
			return nil, err
		}
		if r != nil && matches(r.Meta(), q) {
			out = append(out, r.Meta())
		}
	}
	return out, nil
}

// Delete removes the skill file and its history.
func (s *FS) Delete(ctx context.Context, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, err := s.scan()
	if err != nil {
		return err
	}
	e, ok := idx[name]
	if !ok {
		return &contract.SkillNotFoundError{Name: name}
	}
	s.invalidate()
	if err := os.Remove(e.path); err != nil {
		return fmt.Errorf("skill store: delete %s: %w", name, err)
	}
	if err := os.Remove(s.sidecarPath(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("skill store: delete history of %s: %w", name, err)
	}
	return nil
}

// Versions returns the skill's history, oldest first.
func (s *FS) Versions(ctx context.Context, name string) ([]contract.SkillVersion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []contract.SkillVersion{}
	idx, err := s.scan()
	if err != nil {
		return nil, err
	}
	if _, ok := idx[name]; !ok {
		return out, nil
	}
	for _, v := range s.readSidecar(name).Versions {
		out = append(out, contract.SkillVersion{Version: v.Version, ContentHash: v.ContentHash, Status: v.Status, Author: v.Author, CreatedAt: v.CreatedAt})
	}
	return out, nil
}

// UpdateStatus rewrites the skill's # Status: line.
func (s *FS) UpdateStatus(ctx context.Context, name, status string) error {
	canon, ok := contract.CanonicalStatus(status)
	if !ok {
		return fmt.Errorf("invalid status %q (want Draft, Approved or Disabled)", status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, err := s.scan()
	if err != nil {
		return err
	}
	e, ok := idx[name]
	if !ok {
		return &contract.SkillNotFoundError{Name: name}
	}
	r, err := s.load(e)
	if err != nil || r == nil {
		return errors.Join(err, &contract.SkillNotFoundError{Name: name})
	}
	s.invalidate()
	return s.persist(e, withStatus(r.Body, canon), canon, r.Author)
}

// Version returns a token over every skill file's name, modification time
// and size; any add, removal or rewrite changes it. Bodies are not read
// beyond the header scan of the directory listing.
func (s *FS) Version(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return "", fmt.Errorf("skill store: %w", err)
	}
	h := sha256.New()
	for _, de := range des {
		if de.IsDir() || !strings.HasSuffix(de.Name(), Ext) {
			continue
		}
		if fi, err := de.Info(); err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\n", de.Name(), fi.ModTime().UnixNano(), fi.Size(), inode(fi))
		}
	}
	// Sidecars record every write made through the store, so an edit that
	// lands within the file system's timestamp granularity still moves the
	// token.
	side, _ := os.ReadDir(filepath.Join(s.dir, ".versions"))
	for _, de := range side {
		if fi, err := de.Info(); err == nil {
			fmt.Fprintf(h, "v\x00%s\x00%d\x00%d\n", de.Name(), fi.Size(), inode(fi))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func sortedNames(idx map[string]entry) []string {
	names := make([]string, 0, len(idx))
	for n := range idx {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// atomicWrite writes data to path through a temporary file and rename.
func atomicWrite(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
