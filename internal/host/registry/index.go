package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/workspace"
)

// stamp identifies a file version for the hash cache.
type stamp struct {
	size  int64
	mtime time.Time
	sum   string
}

// cache is what one Refresh may reuse from the previous ones: the sha256
// of files by absolute path (a file whose size and modification time are
// unchanged is not read again) and the parsed record of each package by
// directory, valid while the package digest is unchanged. It is safe for
// concurrent use.
type cache struct {
	mu     sync.Mutex
	hashes map[string]stamp
	pkgs   map[string]*Record
	dirs   map[string]dirStamp
	dirty  bool     // changed since the last save
	src    *srcFile // the loaded cache file's sources region
}

// dirStamp is a package directory's listing, valid while the
// directory's modification time is unchanged (adding, removing or
// renaming an entry changes it).
type dirStamp struct {
	mtime time.Time
	ents  []dirEnt
}

// dirEnt is one entry of a listed directory.
type dirEnt struct {
	Name string
	Mode fs.FileMode // type bits only
}

func newCache() *cache {
	return &cache{hashes: map[string]stamp{}, pkgs: map[string]*Record{}, dirs: map[string]dirStamp{}}
}

// racyWindow is how recent a directory's modification time may be for
// its listing to be reused: file systems keep modification times at a
// granularity of up to a few milliseconds (2 s on FAT), so a directory
// listed within that time of a change may change again without a new
// modification time.
const racyWindow = 2 * time.Second

// readDir lists dir, from the cache when the directory's modification
// time (st, its stat made by the caller) did not change and was not
// racily recent when it was listed.
func (c *cache) readDir(dir string, st fileStat) ([]dirEnt, error) {
	c.mu.Lock()
	d, ok := c.dirs[dir]
	c.mu.Unlock()
	if ok && d.mtime.Equal(st.mtime) {
		return d.ents, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]dirEnt, len(ents))
	for i, e := range ents {
		out[i] = dirEnt{Name: e.Name(), Mode: e.Type()}
	}
	mtime := st.mtime
	if time.Since(mtime) < racyWindow {
		// changed so recently that another change may yet keep this
		// modification time (a coarse file-system clock): not reused
		mtime = time.Time{}
	}
	c.mu.Lock()
	if !ok || !d.mtime.Equal(mtime) || !slices.Equal(d.ents, out) {
		// a racy listing read again unchanged does not rewrite the file
		c.dirs[dir] = dirStamp{mtime: mtime, ents: out}
		c.dirty = true
	}
	c.mu.Unlock()
	return out, nil
}

// digest returns the Digest of the manifest res of dir: the cached
// record's when its manifest is res (as it is for every unchanged
// package), else computed.
func (c *cache) digest(dir string, res []Resource) string {
	c.mu.Lock()
	rec, ok := c.pkgs[dir]
	c.mu.Unlock()
	if ok && slices.Equal(rec.Resources, res) && rec.Digest != "" {
		return rec.Digest
	}
	return Digest(res)
}

// pkg returns a copy of the cached record of dir if its digest matches.
func (c *cache) pkg(dir, digest string) (*Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rec, ok := c.pkgs[dir]
	if !ok || rec.Digest != digest {
		return nil, false
	}
	cp := *rec
	return &cp, true
}

func (c *cache) putPkg(dir string, rec *Record) {
	cp := *rec
	c.mu.Lock()
	c.pkgs[dir] = &cp
	c.dirty = true
	c.mu.Unlock()
}

// hashFile returns the hex sha256 of the file at abs (read through root
// as rel, so it cannot leave the package).
func (c *cache) hashFile(root *os.Root, rel, abs string, st fs.FileInfo) (string, error) {
	c.mu.Lock()
	s, ok := c.hashes[abs]
	c.mu.Unlock()
	if ok && s.size == st.Size() && s.mtime.Equal(st.ModTime()) {
		return s.sum, nil
	}
	f, err := root.Open(rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	c.mu.Lock()
	c.hashes[abs] = stamp{size: st.Size(), mtime: st.ModTime(), sum: sum}
	c.dirty = true
	c.mu.Unlock()
	return sum, nil
}

// skipResource reports files and directories a package manifest leaves
// out: version-control and editor clutter, caches and compiled Python.
func skipResource(name string, dir bool) bool {
	if dir {
		return name == ".git" || name == "node_modules" || name == "__pycache__"
	}
	return name == ".DS_Store" || strings.HasSuffix(name, ".pyc")
}

// manifest lists every regular file of the package in dir (the
// candidate c), sorted by path, with sizes and hashes. Symbolic links
// that stay inside the package are followed; those that leave it are
// reported and left out.
func manifest(dir string, c candidate, cache *cache) ([]Resource, ast.Diagnostics, error) {
	if out, ok := manifestPlain(dir, c, cache); ok {
		return out, nil, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	var out []Resource
	var probs ast.Diagnostics
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		if skipResource(d.Name(), d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		st, err := root.Stat(p)
		if err != nil {
			probs = append(probs, inFile(filepath.Join(dir, p), ast.Warnf(agentskills.RuleSymlink, ast.Range{},
				"%s is a symbolic link that leaves the package or cannot be resolved; it is not part of the package", p)))
			return nil
		}
		if !st.Mode().IsRegular() {
			return nil
		}
		sum, err := cache.hashFile(root, p, filepath.Join(dir, p), st)
		if err != nil {
			return err
		}
		out = append(out, Resource{Path: path.Clean(p), Size: st.Size(), SHA256: sum})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, probs, err
}

// manifestPlain is manifest's fast path for the usual package: no
// symbolic links and every file's hash already cached (same size and
// modification time). It stats the directories (relative to the scan
// root, c.base) and the files, reads a directory only when its
// modification time changed, and opens nothing; it does not stat the
// package file again (the scan's stat, c.file). ok is false when the
// package needs the full walk through os.Root (a link, an uncached file,
// an error).
func manifestPlain(dir string, c candidate, cache *cache) (out []Resource, ok bool) {
	if c.base == nil {
		return nil, false
	}
	var walk func(abs, rel string) bool
	walk = func(abs, rel string) bool {
		// the directory is followed if it is a link (the package itself
		// may be one): its listing is the target's
		st, err := c.base.stat(relJoin(c.rel, rel))
		if err != nil || !st.mode.IsDir() {
			return false
		}
		ents, err := cache.readDir(abs, st)
		if err != nil {
			return false
		}
		for _, d := range ents {
			if skipResource(d.Name, d.Mode.IsDir()) {
				continue
			}
			p, r := joinName(abs, d.Name), relJoin(rel, d.Name)
			switch t := d.Mode; {
			case t&fs.ModeSymlink != 0:
				return false
			case t.IsDir():
				if !walk(p, r) {
					return false
				}
			case t.IsRegular():
				st := c.file
				if rel != "" || c.fileName != d.Name {
					var err error
					if st, err = c.base.lstat(relJoin(c.rel, r)); err != nil {
						return false
					}
				}
				if !st.mode.IsRegular() {
					return false
				}
				cache.mu.Lock()
				s, hit := cache.hashes[p]
				cache.mu.Unlock()
				if !hit || s.size != st.size || !s.mtime.Equal(st.mtime) {
					return false
				}
				out = append(out, Resource{Path: r, Size: st.size, SHA256: s.sum})
			}
		}
		return true
	}
	if !walk(dir, "") {
		return nil, false
	}
	slices.SortFunc(out, func(a, b Resource) int { return strings.Compare(a.Path, b.Path) })
	return out, true
}

// Digest returns "sha256:<hex>" over the canonical manifest: one
// "path\x00size\x00sha256\n" line per file, sorted by path.
func Digest(rs []Resource) string {
	h := sha256.New()
	for _, r := range rs {
		fmt.Fprintf(h, "%s\x00%d\x00%s\n", r.Path, r.Size, r.SHA256)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// indexPackage builds the record of the package in dir. The package is
// parsed again only when its digest changed since the last Refresh.
func indexPackage(c candidate, opts Options, cc *cache) (*Record, ast.Diagnostics) {
	abs, _ := filepath.Abs(c.path)
	res, probs, err := manifest(abs, c, cc)
	if err != nil {
		probs = append(probs, inFile(abs, ast.Errorf(agentskills.RuleScanLimit, ast.Range{}, "cannot list the package files: %v", err)))
	}
	digest := cc.digest(abs, res)
	rec, ok := cc.pkg(abs, digest)
	if !ok {
		rec = parsePackage(abs, opts)
		if rec == nil {
			return nil, append(probs, inFile(abs, ast.Errorf(agentskills.RuleFrontmatter, ast.Range{}, "%s has no SKILL.md", abs)))
		}
		rec.Resources, rec.Digest = res, digest
		rec.Loadable = rec.Loadable && err == nil
		cc.putPkg(abs, rec)
	}
	rec.Origin, rec.rank = c.origin, rankOf(c)
	return rec, probs
}

// parsePackage loads and validates the SKILL.md of dir into a record
// without its manifest; nil when there is no package file.
func parsePackage(abs string, opts Options) *Record {
	s, ds, err := agentskills.LoadDir(abs, opts.Validation)
	if err != nil {
		return nil
	}
	rec := &Record{Kind: KindPackage, Root: abs, Location: s.Path, diags: ds, src: s.Src}
	rec.Name, rec.Description, rec.frontmatter, rec.body = s.Name, s.Description, s.Frontmatter, s.Body
	rec.Loadable = s.Loadable
	rec.Status = s.Metadata["status"]
	rec.Tags, _ = agentskills.SplitTools(s.Metadata["tags"])
	rec.Class, rec.Domain, rec.headings = s.Class, s.Metadata["domain"], markdownHeadings(s.Body)
	rec.Requires = strings.Fields(s.Metadata["requires"])
	rec.Env = strings.Fields(s.Metadata["env"])
	for _, d := range ds {
		if d.Severity == ast.Error && strings.HasPrefix(d.Rule, "skillmd-classification") {
			p := s.Lines.Position(d.Range.From)
			rec.ClassProblems = append(rec.ClassProblems, fmt.Sprintf("%d:%d: %s", p.Line, p.Column, d.Message))
		}
	}
	if rec.Name == "" {
		rec.Name = filepath.Base(abs)
	}
	return rec
}

// maxScriptSize caps what the registry reads of one skillscript.
const maxScriptSize = 2 << 20

// indexScript builds the record of a skillscript file.
func indexScript(c candidate) (*Record, ast.Diagnostics) {
	abs, _ := filepath.Abs(c.path)
	rec := &Record{Kind: KindScript, Origin: c.origin, Location: abs, rank: rankOf(c)}
	st, err := os.Stat(abs)
	if err != nil || st.Size() > maxScriptSize {
		return nil, ast.Diagnostics{inFile(abs, ast.Errorf(agentskills.RuleTooLarge, ast.Range{}, "cannot index %s: missing or larger than %d bytes", abs, maxScriptSize))}
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, ast.Diagnostics{inFile(abs, ast.Errorf(agentskills.RuleScanLimit, ast.Range{}, "cannot read %s: %v", abs, err))}
	}
	u := workspace.Parse(abs, src)
	f := u.File
	rec.src, rec.diags = src, u.Parsed
	fillScript(rec, f)
	if rec.Name == "" {
		rec.Name = strings.TrimSuffix(filepath.Base(abs), ".skill.md")
	}
	rec.Loadable = !f.NotText && !u.Parsed.HasErrors()
	sum := sha256.Sum256(src)
	rec.Resources = []Resource{{Path: filepath.Base(abs), Size: int64(len(src)), SHA256: hex.EncodeToString(sum[:])}}
	rec.Digest = "sha256:" + hex.EncodeToString(sum[:])
	return rec, nil
}

// fillScript copies a skillscript's headers into the record.
func fillScript(rec *Record, f *ast.File) {
	rec.Name = f.SkillName()
	fm := map[string]any{}
	for _, h := range f.Headers {
		if h.Key != nil {
			fm[h.Key.Name] = h.Value
		}
	}
	rec.frontmatter = fm
	con := &Contract{Type: "procedural"}
	if h := f.Header(ast.HeaderDescription); h != nil {
		rec.Description = strings.TrimSpace(h.Value)
	}
	if h := f.Header(ast.HeaderStatus); h != nil && h.Status != nil {
		rec.Status = h.Status.State
	}
	if h := f.Header(ast.HeaderType); h != nil && len(h.Names) == 1 {
		con.Type = h.Names[0].Name
	}
	for _, h := range f.HeadersOf(ast.HeaderVars) {
		for _, v := range h.Vars {
			if v.Name != nil {
				con.Vars = append(con.Vars, v.Name.Name)
			}
		}
	}
	con.Returns = headerNames(f, ast.HeaderReturns)
	rec.Tags = headerNames(f, ast.HeaderTags)
	for _, h := range f.HeadersOf(ast.HeaderOutput) {
		for _, o := range h.Outputs {
			if o.Kind != nil {
				con.Output = append(con.Output, o.Kind.Name)
			}
		}
	}
	rec.Contract = con
	c, probs := classification.Of(f)
	rec.Class = c
	for _, pr := range probs {
		p := f.Lines.Position(pr.Range.From)
		rec.ClassProblems = append(rec.ClassProblems, fmt.Sprintf("%d:%d: %s", p.Line, p.Column, pr.Message))
	}
	seen := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if d, ok := n.(*ast.DispatchStmt); ok && d.Connector != nil {
			if !seen[d.Connector.Name] {
				seen[d.Connector.Name] = true
				rec.Requires = append(rec.Requires, d.Connector.Name)
			}
			if d.Tool != nil && !seen[d.Connector.Name+"."+d.Tool.Name] {
				seen[d.Connector.Name+"."+d.Tool.Name] = true
				rec.Tools = append(rec.Tools, d.Connector.Name+"."+d.Tool.Name)
			}
		}
		return true
	})
	sort.Strings(rec.Requires)
	sort.Strings(rec.Tools)
	for _, t := range f.Targets {
		if t.Name != nil {
			rec.headings = append(rec.headings, t.Name.Name)
		}
	}
}

// markdownHeadings returns the ATX headings of a Markdown body, outside
// fenced code blocks.
func markdownHeadings(body string) []string {
	var out []string
	fence := false
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(t, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(t, "#"))
		if h != "" && len(t)-len(strings.TrimLeft(t, "#")) <= 6 {
			out = append(out, h)
		}
	}
	return out
}

func headerNames(f *ast.File, k ast.HeaderKind) []string {
	var out []string
	for _, h := range f.HeadersOf(k) {
		for _, n := range h.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// rankOf orders candidates: origin precedence, then root order.
func rankOf(c candidate) int { return originRank(c.origin)*1000 + c.order }
