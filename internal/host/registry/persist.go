package registry

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/classification"
)

// cacheMagic starts a cache file; its number changes whenever the
// layout or the way a record is derived from a package changes (a file
// of another version is ignored).
const cacheMagic = "skillc-registry-cache 7\n"

// The cache file (all integers uvarint unless said; a string is its
// length then its bytes; a time is its Unix nanoseconds, zig-zag):
//
//	magic, the metadata's length (8 bytes, little-endian), the
//	metadata's CRC-32C (4 bytes, little-endian)
//	metadata:
//	  validation options
//	  hashes:   n × (path, size, mtime, sum)
//	  listings: n × (dir, mtime, n × (name, mode))
//	  packages: n × (dir, record)
//	  rare:     a gob stream of the few records' classification and
//	            contract (by package index)
//	sources:  per record one region: its extras (frontmatter, headings
//	          and diagnostics), its Src, and its body when that is not
//	          Src's tail
//
// The record's metadata holds its region's offset, lengths and CRC-32C:
// a damaged metadata region makes the whole file ignored, a damaged
// record region makes that record parsed again from its package when
// it is read (DS3).
//
// A record is written field by field (below); its Src, Body and extras
// are written as offsets into the sources region. Loading reads the
// metadata only (every string of it a substring of one string); a
// record's Src and Body are read from the sources region when first
// asked for (Record.Source, Record.Text), and so are its extras
// (Record.FrontmatterMap, HeadingTexts, Diagnostics), which a second
// `skills discover` does not need: at 5,000 real packages it reads
// about 5 MB rather than 98 MB (RS1, DS2).

// rareParts are what few package records have, kept in gob.
type rareParts struct {
	I        int
	Class    *classification.Classification
	Contract *Contract
	Diags    ast.Diagnostics
}

// validationKey identifies the validation options records depend on.
func (o Options) validationKey() string { return fmt.Sprintf("%+v", o.Validation) }

// enc appends the cache file's primitives to a buffer.
type enc struct{ b, blob, x []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) time(t time.Time) {
	if t.IsZero() {
		e.int(math.MinInt64)
		return
	}
	e.int(t.UnixNano())
}

// strs writes a list as its length plus one, 0 for nil (an empty list
// and none are told apart, as JSON output does).
func (e *enc) strs(ss []string) {
	if ss == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(ss)) + 1)
	for _, s := range ss {
		e.str(s)
	}
}
func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// The frontmatter value tags.
const (
	tagNil = iota
	tagString
	tagBool
	tagInt
	tagInt64
	tagUint64
	tagFloat
	tagTime
	tagMap
	tagList
)

// value writes a frontmatter value (plainValue holds).
func (e *enc) value(v any) {
	switch x := v.(type) {
	case nil:
		e.uint(tagNil)
	case string:
		e.uint(tagString)
		e.str(x)
	case bool:
		e.uint(tagBool)
		e.bool(x)
	case int:
		e.uint(tagInt)
		e.int(int64(x))
	case int64:
		e.uint(tagInt64)
		e.int(x)
	case uint64:
		e.uint(tagUint64)
		e.uint(x)
	case float64:
		e.uint(tagFloat)
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x))
	case time.Time:
		e.uint(tagTime)
		raw, _ := x.MarshalBinary()
		e.str(string(raw))
	case map[string]any:
		e.uint(tagMap)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		e.uint(uint64(len(keys)))
		for _, k := range keys {
			e.str(k)
			e.value(x[k])
		}
	case []any:
		e.uint(tagList)
		e.uint(uint64(len(x)))
		for _, el := range x {
			e.value(el)
		}
	}
}

// record writes rec but its rare parts; its extras (frontmatter,
// headings, diagnostics) go to the sources region with its Src and
// Body.
func (e *enc) record(r *Record) {
	for _, s := range []string{string(r.Kind), r.Name, r.Origin, r.ID, r.Description, r.Location, r.Root, r.Status, r.Digest, r.Domain, r.ShadowedBy} {
		e.str(s)
	}
	for _, ss := range [][]string{r.Tags, r.ClassProblems, r.Requires, r.Tools, r.Env} {
		e.strs(ss)
	}
	e.uint(uint64(len(r.Resources)))
	for _, res := range r.Resources {
		e.str(res.Path)
		e.int(res.Size)
		e.str(res.SHA256)
	}
	e.bool(r.Loadable)
	x := &enc{b: e.x[:0]}
	fm := r.FrontmatterMap()
	x.bool(fm != nil)
	if fm != nil {
		x.value(fm)
	}
	x.strs(r.HeadingTexts())
	if ds := r.Diagnostics(); plainDiags(ds) {
		x.uint(uint64(len(ds)) + 1)
		for _, d := range ds {
			x.diag(d)
		}
	} else {
		x.uint(0) // none, or in the gob stream
	}
	e.x = x.b
	start := len(e.blob)
	e.blob = append(e.blob, x.b...)
	src, body := r.Source(), r.Text()
	e.blob = append(e.blob, src...)
	tail := strings.HasSuffix(string(src), body)
	if !tail {
		e.blob = append(e.blob, body...)
	}
	e.uint(uint64(start))
	e.uint(uint64(len(x.b)))
	e.bool(src != nil)
	e.uint(uint64(len(src)))
	e.bool(tail)
	e.uint(uint64(len(body)))
	e.b = binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.blob[start:], castagnoli()))
}

// castagnoli is the CRC-32C table (computed by the processor on amd64
// and arm64), made on first use: building it at package init cost every
// skillc process ~0.2 ms, though only the registry's index files use it.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// diag writes a diagnostic; its lists keep nil apart from empty.
func (e *enc) diag(d *ast.Diagnostic) {
	e.int(int64(d.Severity))
	e.str(d.Rule)
	e.str(d.Message)
	e.int(int64(d.Range.From))
	e.int(int64(d.Range.To))
	e.str(d.Target)
	e.str(d.File)
	e.uint(listLen(d.Related == nil, len(d.Related)))
	for _, r := range d.Related {
		e.str(r.File)
		e.int(int64(r.Range.From))
		e.int(int64(r.Range.To))
		e.str(r.Message)
	}
	e.uint(listLen(d.Fixes == nil, len(d.Fixes)))
	for _, f := range d.Fixes {
		e.str(f.Title)
		e.uint(listLen(f.Edits == nil, len(f.Edits)))
		for _, t := range f.Edits {
			e.int(int64(t.Range.From))
			e.int(int64(t.Range.To))
			e.str(t.NewText)
		}
	}
}

// listLen is how a list's length is written: 0 for nil, else length+1.
func listLen(isNil bool, n int) uint64 {
	if isNil {
		return 0
	}
	return uint64(n) + 1
}

// errDamaged reports a cache file that cannot be read back.
var errDamaged = errors.New("damaged registry cache")

// dec reads the primitives enc wrote from s (the file as one string);
// the first error sticks.
type dec struct {
	s      string
	i      int
	err    error
	src    *srcFile
	srcLen uint64
	// blocks, when set, is the least number of records, lazySrcs, list
	// strings and listing entries allocated at a time (take): loading
	// the file then costs a few allocations per 512 records instead of
	// several per record
	blocks  int
	recs    []Record
	lazies  []lazySrc
	strList []string
	ents    []dirEnt
}

// take returns n elements of *block, allocating a new block of at
// least least elements when it is short.
func take[T any](block *[]T, n, least int) []T {
	if n == 0 {
		return []T{} // empty, not nil (as make gives)
	}
	if n > cap(*block)-len(*block) {
		*block = make([]T, 0, max(n, least))
	}
	b := *block
	*block = b[:len(b)+n]
	return b[len(b) : len(b)+n : len(b)+n]
}

func (d *dec) uint() uint64 {
	if d.err != nil {
		return 0
	}
	var v uint64
	var shift uint
	for {
		if d.i >= len(d.s) || shift > 63 {
			d.err = errDamaged
			return 0
		}
		c := d.s[d.i]
		d.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
		shift += 7
	}
}

func (d *dec) int() int64 {
	u := d.uint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count reads a length that must fit in what is left of the file.
func (d *dec) count() int {
	n := d.uint()
	if n > uint64(len(d.s)-d.i) {
		d.err = errDamaged
		return 0
	}
	return int(n)
}

func (d *dec) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := d.s[d.i : d.i+n]
	d.i += n
	return s
}

func (d *dec) time() time.Time {
	n := d.int()
	if n == math.MinInt64 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func (d *dec) strs() []string {
	n := d.count()
	if n == 0 || d.err != nil {
		return nil
	}
	out := take(&d.strList, n-1, d.blocks)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *dec) bool() bool {
	if d.err != nil || d.i >= len(d.s) {
		d.err = errDamaged
		return false
	}
	d.i++
	return d.s[d.i-1] == 1
}

func (d *dec) value(depth int) any {
	if depth > 64 {
		d.err = errDamaged
		return nil
	}
	switch d.uint() {
	case tagNil:
		return nil
	case tagString:
		return d.str()
	case tagBool:
		return d.bool()
	case tagInt:
		return int(d.int())
	case tagInt64:
		return d.int()
	case tagUint64:
		return d.uint()
	case tagFloat:
		if d.i+8 > len(d.s) {
			d.err = errDamaged
			return nil
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64([]byte(d.s[d.i : d.i+8])))
		d.i += 8
		return f
	case tagTime:
		var t time.Time
		if err := t.UnmarshalBinary([]byte(d.str())); err != nil {
			d.err = errDamaged
		}
		return t
	case tagMap:
		n := d.count()
		m := make(map[string]any, n)
		for range n {
			k := d.str()
			m[k] = d.value(depth + 1)
		}
		return m
	case tagList:
		n := d.count()
		l := make([]any, n)
		for i := range l {
			l[i] = d.value(depth + 1)
		}
		return l
	}
	d.err = errDamaged
	return nil
}

// diag reads a diagnostic written by enc.diag into x.
func (d *dec) diag(x *ast.Diagnostic) {
	x.Severity, x.Rule, x.Message = ast.Severity(d.int()), d.str(), d.str()
	x.Range = ast.Range{From: ast.Pos(d.int()), To: ast.Pos(d.int())}
	x.Target, x.File = d.str(), d.str()
	if n := d.count(); n > 0 {
		x.Related = make([]ast.Related, n-1)
		for i := range x.Related {
			x.Related[i] = ast.Related{File: d.str(), Range: ast.Range{From: ast.Pos(d.int()), To: ast.Pos(d.int())}, Message: d.str()}
		}
	}
	if n := d.count(); n > 0 {
		x.Fixes = make([]ast.Fix, n-1)
		for i := range x.Fixes {
			x.Fixes[i].Title = d.str()
			if m := d.count(); m > 0 {
				x.Fixes[i].Edits = make([]ast.TextEdit, m-1)
				for j := range x.Fixes[i].Edits {
					x.Fixes[i].Edits[j] = ast.TextEdit{Range: ast.Range{From: ast.Pos(d.int()), To: ast.Pos(d.int())}, NewText: d.str()}
				}
			}
		}
	}
}

// extras reads a record's extras written by enc.record into l.
func (d *dec) extras(l *lazySrc) {
	if d.bool() {
		l.fm, _ = d.value(0).(map[string]any)
	}
	l.heads = d.strs()
	if n := d.count(); n > 1 {
		ds := make([]ast.Diagnostic, n-1)
		l.diags = make(ast.Diagnostics, n-1)
		for i := range ds {
			d.diag(&ds[i])
			l.diags[i] = &ds[i]
		}
	}
	if d.err == nil && d.i != len(d.s) {
		d.err = errDamaged
	}
}

// record reads a record written by enc.record (its strings share d.s;
// its Src and Body are read from d.src when asked for).
func (d *dec) record() *Record {
	r := &take(&d.recs, 1, d.blocks)[0]
	var kind string
	for _, p := range []*string{&kind, &r.Name, &r.Origin, &r.ID, &r.Description, &r.Location, &r.Root, &r.Status, &r.Digest, &r.Domain, &r.ShadowedBy} {
		*p = d.str()
	}
	r.Kind = Kind(kind)
	for _, p := range []*[]string{&r.Tags, &r.ClassProblems, &r.Requires, &r.Tools, &r.Env} {
		*p = d.strs()
	}
	if n := d.count(); n > 0 {
		r.Resources = make([]Resource, n)
		for i := range r.Resources {
			r.Resources[i] = Resource{Path: d.str(), Size: d.int(), SHA256: d.str()}
		}
	}
	r.Loadable = d.bool()
	l := &take(&d.lazies, 1, d.blocks)[0]
	l.src, l.root, l.off, l.extraN = d.src, r.Root, d.uint(), d.uint()
	l.hasSrc, l.srcN, l.tail, l.bodyN = d.bool(), d.uint(), d.bool(), d.uint()
	l.crc = d.uint32()
	// the region is extras, Src, then the body unless it is Src's tail;
	// each length is at most the sources region's, so the sums below
	// cannot overflow
	l.n = l.extraN + l.srcN
	if !l.tail {
		l.n += l.bodyN
	}
	if l.extraN > d.srcLen || l.srcN > d.srcLen || l.bodyN > d.srcLen || (l.tail && l.bodyN > l.srcN) || !within(l.off, l.n, d.srcLen) {
		d.err = errDamaged
	}
	r.lazy = l
	return r
}

// uint32 reads 4 bytes, little-endian.
func (d *dec) uint32() uint32 {
	if d.err != nil || d.i+4 > len(d.s) {
		d.err = errDamaged
		return 0
	}
	v := binary.LittleEndian.Uint32([]byte(d.s[d.i : d.i+4]))
	d.i += 4
	return v
}

// within reports whether n bytes at off lie inside a region of size
// bytes, without the sum overflowing (a damaged file may hold any value).
func within(off, n, size uint64) bool { return n <= size && off <= size-n }

// srcFile is the sources region of a loaded cache file, kept open so
// that a record's Src and Body can be read when asked for (a rename of
// a newer cache file over the name does not change what it reads).
type srcFile struct {
	mu   sync.Mutex
	f    *os.File // nil once closed
	base int64
	opts Options
}

// readAt returns n bytes of the sources region at off.
func (s *srcFile) readAt(off, n uint64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil, os.ErrClosed
	}
	b := make([]byte, n)
	_, err := s.f.ReadAt(b, s.base+int64(off))
	return b, err
}

func (s *srcFile) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
}

// lazySrc is where a cached record's Src and Body, and its extras, are:
// each read once, when first asked for. A region that cannot be read any
// more (the file was closed before a save replaced it) or does not
// decode is rebuilt from the package itself.
type lazySrc struct {
	src                 *srcFile
	root                string
	off, n              uint64 // the record's region
	extraN, srcN, bodyN uint64
	hasSrc, tail        bool
	crc                 uint32
	once                sync.Once
	// rareDiags are diagnostics the gob stream carried (a list with a
	// nil entry), nil for none
	rareDiags  ast.Diagnostics
	loadedSrc  []byte
	loadedBody string
	fm         map[string]any
	heads      []string
	diags      ast.Diagnostics
}

// loadExtra reads the extras: frontmatter, headings and diagnostics.
func (l *lazySrc) loadExtra() { l.load() }

// load reads the record's region once: its extras, Src and Body. A
// region that cannot be read, whose CRC differs or that does not decode
// is rebuilt from the package.
func (l *lazySrc) load() {
	l.once.Do(func() {
		b, err := l.src.readAt(l.off, l.n)
		if err == nil && crc32.Checksum(b, castagnoli()) != l.crc {
			err = errDamaged
		}
		if err == nil {
			d := &dec{s: string(b[:l.extraN])}
			d.extras(l)
			err = d.err
		}
		if err != nil {
			l.fm, l.heads, l.diags, l.loadedSrc, l.loadedBody = nil, nil, nil, nil, ""
			if rec := parsePackage(l.root, l.src.opts); rec != nil {
				l.fm, l.heads, l.diags, l.loadedSrc, l.loadedBody = rec.frontmatter, rec.headings, rec.diags, rec.src, rec.body
			}
			return
		}
		if l.rareDiags != nil {
			l.diags = l.rareDiags
		}
		src := b[l.extraN : l.extraN+l.srcN : l.extraN+l.srcN]
		if l.tail {
			l.loadedBody = string(src[len(src)-int(l.bodyN):])
		} else {
			l.loadedBody = string(b[l.extraN+l.srcN:])
		}
		if l.hasSrc {
			l.loadedSrc = src
		}
	})
}

// readMeta reads the metadata region of the cache file f into one
// string and returns it with the offset and length of the sources
// region.
func readMeta(f *os.File) (string, int64, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return "", 0, 0, err
	}
	head := make([]byte, len(cacheMagic)+12)
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:len(cacheMagic)]) != cacheMagic {
		return "", 0, 0, errDamaged
	}
	n := binary.LittleEndian.Uint64(head[len(cacheMagic):])
	sum := binary.LittleEndian.Uint32(head[len(cacheMagic)+8:])
	base := int64(len(head))
	if n > uint64(st.Size()-base) {
		return "", 0, 0, errDamaged
	}
	// read in large pieces (io.Copy's 32 KB would be 400 system calls at
	// 5,000 real packages), summed on the way
	var sb strings.Builder
	sb.Grow(int(n))
	h := crc32.New(castagnoli())
	buf := make([]byte, min(max(int64(n), 1), 1<<20))
	if _, err := io.CopyBuffer(&sb, io.TeeReader(io.NewSectionReader(f, base, int64(n)), h), buf); err != nil || sb.Len() != int(n) || h.Sum32() != sum {
		return "", 0, 0, errDamaged
	}
	return sb.String(), base + int64(n), st.Size() - base - int64(n), nil
}

// load fills the cache from file, when it holds a cache of this version
// made with the same validation options; any problem leaves the cache
// as it is (the next Refresh rebuilds what it needs).
func (c *cache) load(file string, o Options) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	meta, base, size, err := readMeta(f)
	if err != nil {
		f.Close()
		return
	}
	sf := &srcFile{f: f, base: base, opts: o}
	d := &dec{s: meta, src: sf, srcLen: uint64(size), blocks: 512}
	if d.str() != o.validationKey() || d.err != nil {
		f.Close()
		return
	}
	hashes := make([]persistedStamp, d.count())
	for i := range hashes {
		hashes[i] = persistedStamp{Path: d.str(), Size: d.int(), MTime: d.time(), Sum: d.str()}
	}
	dirs := make([]persistedDir, d.count())
	for i := range dirs {
		dirs[i] = persistedDir{Path: d.str(), MTime: d.time()}
		ents := take(&d.ents, d.count(), d.blocks)
		for j := range ents {
			ents[j] = dirEnt{Name: d.str(), Mode: fs.FileMode(d.uint())}
		}
		dirs[i].Ents = ents
	}
	pkgs := make([]persistedPkg, d.count())
	for i := range pkgs {
		pkgs[i] = persistedPkg{Dir: d.str(), Rec: d.record()}
	}
	if d.err != nil {
		f.Close()
		return
	}
	var rare []rareParts
	if err := gob.NewDecoder(strings.NewReader(meta[d.i:])).Decode(&rare); err != nil {
		f.Close()
		return
	}
	for _, p := range rare {
		if p.I < 0 || p.I >= len(pkgs) {
			f.Close()
			return
		}
		r := pkgs[p.I].Rec
		r.Class, r.Contract = p.Class, p.Contract
		r.lazy.rareDiags = p.Diags
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.hashes) == 0 && len(c.dirs) == 0 && len(c.pkgs) == 0 {
		// sized once rather than grown 5,000 entries at a time
		c.hashes, c.dirs, c.pkgs = make(map[string]stamp, len(hashes)), make(map[string]dirStamp, len(dirs)), make(map[string]*Record, len(pkgs))
	}
	for _, s := range hashes {
		c.hashes[s.Path] = stamp{size: s.Size, mtime: s.MTime, sum: s.Sum}
	}
	for _, d := range dirs {
		c.dirs[d.Path] = dirStamp{mtime: d.MTime, ents: d.Ents}
	}
	for _, e := range pkgs {
		c.pkgs[e.Dir] = e.Rec
	}
	if c.src != nil {
		c.src.close()
	}
	c.src = sf
}

// persistedStamp, persistedDir and persistedPkg are the cache's
// entries as the file holds them.
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

// save writes the entries the last Refresh used (live package paths and
// directories, and the listings of the scanned directories) to file
// atomically: a temporary file renamed over it.
// Records whose frontmatter holds values the file cannot carry are left
// out (they are parsed again next time).
func (c *cache) save(file, opts string, live, scanned map[string]bool) error {
	e := &enc{b: make([]byte, 0, 1<<20)}
	e.str(opts)
	var rare []rareParts
	c.mu.Lock()
	var hashes, dirs, pkgs []string
	for k := range c.hashes {
		if underLive(k, live) {
			hashes = append(hashes, k)
		}
	}
	for k := range c.dirs {
		if live[k] || scanned[k] || underLive(k, live) {
			dirs = append(dirs, k)
		}
	}
	for k, r := range c.pkgs {
		if live[k] && plainValue(r.FrontmatterMap()) {
			pkgs = append(pkgs, k)
		}
	}
	sort.Strings(hashes)
	sort.Strings(dirs)
	sort.Strings(pkgs)
	e.uint(uint64(len(hashes)))
	for _, k := range hashes {
		s := c.hashes[k]
		e.str(k)
		e.int(s.size)
		e.time(s.mtime)
		e.str(s.sum)
	}
	e.uint(uint64(len(dirs)))
	for _, k := range dirs {
		d := c.dirs[k]
		e.str(k)
		e.time(d.mtime)
		e.uint(uint64(len(d.ents)))
		for _, en := range d.ents {
			e.str(en.Name)
			e.uint(uint64(en.Mode))
		}
	}
	e.uint(uint64(len(pkgs)))
	for i, k := range pkgs {
		r := c.pkgs[k]
		e.str(k)
		e.record(r)
		ds := r.Diagnostics()
		if plain := plainDiags(ds); r.Class != nil || r.Contract != nil || (len(ds) > 0 && !plain) {
			p := rareParts{I: i, Class: r.Class, Contract: r.Contract}
			if !plain {
				p.Diags = ds
			}
			rare = append(rare, p)
		}
	}
	old := c.src
	c.src = nil
	c.mu.Unlock()
	var tail bytes.Buffer
	if err := gob.NewEncoder(&tail).Encode(rare); err != nil {
		return err
	}
	if old != nil {
		// every record written was read above; a record read later
		// rebuilds its source from its package (lazySrc.load), and a file
		// held open would stop the rename below on Windows
		old.close()
	}
	head := binary.LittleEndian.AppendUint64([]byte(cacheMagic), uint64(len(e.b)+tail.Len()))
	head = binary.LittleEndian.AppendUint32(head, crc32.Update(crc32.Checksum(e.b, castagnoli()), castagnoli(), tail.Bytes()))
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<16)
	w.Write(head)
	w.Write(e.b)
	w.Write(tail.Bytes())
	w.Write(e.blob)
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// plainDiags reports whether ds is a non-empty list the record
// carries itself (every entry set); the gob stream, which cost 20 ms to
// decode at 5,000 real packages when it held every record's
// diagnostics, keeps only what is left.
func plainDiags(ds ast.Diagnostics) bool {
	if len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		if d == nil {
			return false
		}
	}
	return true
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

// plainValue reports whether v holds only the value types the cache
// file carries (YAML maps, sequences and scalars).
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
