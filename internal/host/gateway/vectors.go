package gateway

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// Identified is an [Embedder] that names its model: vectors persisted
// under one identity are reused only by an embedder of the same one
// (vectors of different models are not comparable). An embedder that
// does not implement it has its vectors kept in memory only.
type Identified interface {
	Identity() string
}

// Identity implements [Identified]: the protocol, base URL and model
// (the key is not part of it; only a hash of the identity is written).
func (e *HTTPEmbedder) Identity() string {
	return e.Protocol + "\x00" + e.BaseURL + "\x00" + e.Model
}

// vectorMagic starts a persisted vector file.
const vectorMagic = "skillc-gateway-vectors 1\n"

// identityHash is what a vector file records of the embedder's
// identity (a base URL may carry a password).
func identityHash(id string) [32]byte { return sha256.Sum256([]byte(id)) }

// loadVectors reads the vectors persisted in file for the embedder of
// identity id, by digest and name; nil when the file is missing,
// damaged or made by another embedder.
func loadVectors(file string, id [32]byte) map[string][]float32 {
	data, err := os.ReadFile(file)
	if err != nil || !bytes.HasPrefix(data, []byte(vectorMagic)) {
		return nil
	}
	data = data[len(vectorMagic):]
	if len(data) < 32 || !bytes.Equal(data[:32], id[:]) {
		return nil
	}
	r := bytes.NewReader(data[32:])
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(len(data)) {
		return nil
	}
	out := make(map[string][]float32, n)
	for range n {
		kl, err := binary.ReadUvarint(r)
		if err != nil || kl > uint64(r.Len()) {
			return nil
		}
		key := make([]byte, kl)
		if _, err := io.ReadFull(r, key); err != nil {
			return nil
		}
		dim, err := binary.ReadUvarint(r)
		if err != nil || dim*4 > uint64(r.Len()) {
			return nil
		}
		v := make([]float32, dim)
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil
		}
		out[string(key)] = v
	}
	return out
}

// saveVectors writes vecs (by digest and name) to file atomically,
// through a temporary file, for the embedder of identity id.
func saveVectors(file string, id [32]byte, vecs map[string][]float32) error {
	keys := make([]string, 0, len(vecs))
	for k := range vecs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<16)
	w.WriteString(vectorMagic)
	w.Write(id[:])
	w.Write(binary.AppendUvarint(nil, uint64(len(keys))))
	var b [4]byte
	for _, k := range keys {
		v := vecs[k]
		w.Write(binary.AppendUvarint(nil, uint64(len(k))))
		w.WriteString(k)
		w.Write(binary.AppendUvarint(nil, uint64(len(v))))
		for _, x := range v {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
			w.Write(b[:])
		}
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

// toFloat32 is v at the precision vectors are kept and persisted in, so
// a vector read back ranks exactly as the one first received.
func toFloat32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}
