package gateway

import (
	"bufio"
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
const analyzerVersion = 1

// indexMagic starts a persisted index file.
const indexMagic = "skillc-gateway-index\n"

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
// through a temporary file), keyed by fp.
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
	for t, ps := range ix.terms {
		put(uint64(len(t)))
		buf.WriteString(t)
		put(uint64(len(ps)))
		prev := int32(0)
		for _, p := range ps {
			put(uint64(p.doc - prev))
			prev = p.doc
			for _, n := range p.tf {
				put(uint64(n))
			}
		}
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

// loadIndex reads the index persisted in file for recs; errStale when
// it was built from another catalog (or cannot be read).
func loadIndex(file string, fp [32]byte, recs []*registry.Record, gen uint64, w Weights) (*index, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(indexMagic)) || len(data) < len(indexMagic)+32 || !bytes.Equal(data[len(indexMagic):len(indexMagic)+32], fp[:]) {
		return nil, errStale
	}
	r := bufio.NewReader(bytes.NewReader(data[len(indexMagic)+32:]))
	var bad bool
	get := func() uint64 {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			bad = true
		}
		return v
	}
	n := get()
	if bad || n != uint64(len(recs)) {
		return nil, errStale
	}
	ix := &index{gen: gen, recs: recs, lens: make([][nFields]int32, n), w: w, lex: defaultLexicon()}
	var total [nFields]float64
	for i := range ix.lens {
		for f := range nFields {
			ix.lens[i][f] = int32(get())
			total[f] += float64(ix.lens[i][f])
		}
	}
	nt := get()
	if bad || nt > uint64(len(data)) {
		return nil, errStale
	}
	ix.terms = make(map[string][]posting, nt)
	for range nt {
		l := get()
		if bad || l > uint64(len(data)) {
			return nil, errStale
		}
		t := make([]byte, l)
		if _, err := io.ReadFull(r, t); err != nil {
			return nil, errStale
		}
		np := get()
		if bad || np > n {
			return nil, errStale
		}
		ps := make([]posting, np)
		doc := uint64(0)
		for k := range ps {
			doc += get()
			if doc >= n {
				return nil, errStale
			}
			ps[k].doc = int32(doc)
			for f := range nFields {
				ps[k].tf[f] = uint16(get())
			}
		}
		ix.terms[string(t)] = ps
	}
	if bad {
		return nil, errStale
	}
	for f := range total {
		if n > 0 {
			ix.avg[f] = max(total[f]/float64(n), 1)
		}
	}
	return ix, nil
}
