package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/skillscript/skillc/internal/host/registry"
)

// analyzerVersion changes whenever analyze, the stemmer or the field
// layout changes: a persisted index of another version is rebuilt.
const analyzerVersion = 3

// indexMagic starts a persisted index file.
const indexMagic = "skillc-gateway-index 2\n"

// fingerprint identifies the catalog an index was built from: the
// analyzer version and every record's id and content digest, in order.
func fingerprint(recs []*registry.Record) [32]byte {
	h := sha256.New()
	var b [binary.MaxVarintLen64]byte
	h.Write(b[:binary.PutUvarint(b[:], analyzerVersion)])
	for _, r := range recs {
		io.WriteString(h, r.ID)
		h.Write([]byte{0})
		io.WriteString(h, r.Digest)
		h.Write([]byte{'\n'})
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// saveIndex writes ix's postings and field lengths to file (atomically,
// through a temporary file), keyed by fp. Each term's postings are one
// block preceded by its byte length, so a loader can leave the blocks of
// terms no query asks for undecoded.
func saveIndex(file string, fp [32]byte, ix *index) error {
	var buf bytes.Buffer
	buf.WriteString(indexMagic)
	buf.Write(fp[:])
	put := func(v uint64) { buf.Write(binary.AppendUvarint(nil, v)) }
	put(uint64(len(ix.lens)))
	for _, l := range ix.lens {
		for _, n := range l {
			put(uint64(n))
		}
	}
	put(uint64(len(ix.terms)))
	var block []byte
	for t, ps := range ix.terms {
		put(uint64(len(t)))
		buf.WriteString(t)
		put(uint64(len(ps)))
		block = block[:0]
		prev := int32(0)
		for _, p := range ps {
			block = binary.AppendUvarint(block, uint64(p.doc-prev))
			prev = p.doc
			for _, n := range p.tf {
				block = binary.AppendUvarint(block, uint64(n))
			}
		}
		put(uint64(len(block)))
		buf.Write(block)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

var errStale = errors.New("persisted index is stale or damaged")

// span is where a term's postings block lies in a loaded index file.
type span struct {
	count    int // postings
	from, to int // bytes of the block
}

// uvarints decodes the file's unsigned varints; the first error sticks.
type uvarints struct {
	b   []byte
	i   int
	bad bool
}

func (u *uvarints) next() uint64 {
	v, n := binary.Uvarint(u.b[min(u.i, len(u.b)):])
	if n <= 0 {
		u.bad = true
		return 0
	}
	u.i += n
	return v
}

// loadIndex reads the index persisted in file for recs; errStale when
// it was built from another catalog (or cannot be read). It decodes the
// field lengths and the term directory; a term's postings are decoded
// when a search first asks for them (see [index.postings]).
func loadIndex(file string, fp [32]byte, recs []*registry.Record, gen uint64, w Weights) (*index, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(indexMagic)) || len(data) < len(indexMagic)+32 || !bytes.Equal(data[len(indexMagic):len(indexMagic)+32], fp[:]) {
		return nil, errStale
	}
	u := &uvarints{b: data, i: len(indexMagic) + 32}
	n := u.next()
	if u.bad || n != uint64(len(recs)) {
		return nil, errStale
	}
	ix := &index{gen: gen, recs: recs, lens: make([][nFields]int32, n), w: w, lex: defaultLexicon()}
	var total [nFields]float64
	for i := range ix.lens {
		for f := range nFields {
			ix.lens[i][f] = int32(u.next())
			total[f] += float64(ix.lens[i][f])
		}
	}
	nt := u.next()
	if u.bad || nt > uint64(len(data)) {
		return nil, errStale
	}
	ix.terms = make(map[string][]posting)
	ix.lazy = make(map[string]span, nt)
	ix.raw = data
	for range nt {
		l := u.next()
		if u.bad || l > uint64(len(data)-u.i) {
			return nil, errStale
		}
		t := string(data[u.i : u.i+int(l)])
		u.i += int(l)
		np, bl := u.next(), u.next()
		if u.bad || np > n || bl > uint64(len(data)-u.i) || np > bl {
			return nil, errStale
		}
		ix.lazy[t] = span{count: int(np), from: u.i, to: u.i + int(bl)}
		u.i += int(bl)
	}
	if u.bad || u.i != len(data) {
		return nil, errStale
	}
	for f := range total {
		if n > 0 {
			ix.avg[f] = max(total[f]/float64(n), 1)
		}
	}
	return ix, nil
}

// postings returns the postings of term t, decoding them from the loaded
// file on first use. A block that does not decode counts as no postings
// (the file was checked against the catalog's fingerprint and its
// layout when loaded). The caller serialises searches.
func (ix *index) postings(t string) []posting {
	if ps, ok := ix.terms[t]; ok || ix.lazy == nil {
		return ps
	}
	sp, ok := ix.lazy[t]
	if !ok {
		return nil
	}
	u := &uvarints{b: ix.raw[:sp.to], i: sp.from}
	ps := make([]posting, sp.count)
	doc := uint64(0)
	for k := range ps {
		doc += u.next()
		if doc >= uint64(len(ix.lens)) {
			u.bad = true
			break
		}
		ps[k].doc = int32(doc)
		for f := range nFields {
			ps[k].tf[f] = uint16(u.next())
		}
	}
	if u.bad || u.i != sp.to {
		ps = nil
	}
	ix.terms[t] = ps
	return ps
}
