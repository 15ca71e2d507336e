package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/skillscript/skillc/internal/host/registry"
)

// Embedder turns texts into vectors for the optional semantic stage of
// discover.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

// HTTPEmbedder speaks an embeddings wire protocol: "openai" (POST
// {base}/embeddings, the base ending in /v1 as OPENAI_BASE_URL does,
// {"model","input":[...]} → {"data":[{"index","embedding"}]}) or
// "ollama" (POST {base}/api/embed, {"model","input"} →
// {"embeddings":[[...]]}).
type HTTPEmbedder struct {
	Protocol string // "openai" or "ollama"
	BaseURL  string
	Model    string
	APIKey   string // sent as a bearer token (openai); never logged
	Client   *http.Client
}

// Embed implements Embedder.
func (e *HTTPEmbedder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	path := "/embeddings"
	if e.Protocol == "ollama" {
		path = "/api/embed"
	}
	body, _ := json.Marshal(map[string]any{"model": e.Model, "input": texts})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(e.BaseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.APIKey)
	}
	c := e.Client
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s: %w", path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embeddings endpoint %s: HTTP %d", path, resp.StatusCode)
	}
	var out [][]float64
	if e.Protocol == "ollama" {
		var r struct {
			Embeddings [][]float64 `json:"embeddings"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("embeddings endpoint %s: %w", path, err)
		}
		out = r.Embeddings
	} else {
		var r struct {
			Data []struct {
				Index     int       `json:"index"`
				Embedding []float64 `json:"embedding"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("embeddings endpoint %s: %w", path, err)
		}
		out = make([][]float64, len(texts))
		for _, d := range r.Data {
			if d.Index >= 0 && d.Index < len(out) {
				out[d.Index] = d.Embedding
			}
		}
	}
	if len(out) != len(texts) {
		return nil, fmt.Errorf("embeddings endpoint %s: %d vectors for %d texts", path, len(out), len(texts))
	}
	for i, v := range out {
		if len(v) == 0 {
			return nil, fmt.Errorf("embeddings endpoint %s: no vector for input %d", path, i)
		}
	}
	return out, nil
}

// rrfK is the reciprocal rank fusion constant (the usual 60).
const rrfK = 60

// embedText is what the semantic stage embeds of a skill.
func embedText(rec *registry.Record) string {
	return rec.Name + ": " + rec.Description
}

// vectors returns the vectors of recs, embedding only those whose
// digest is not cached yet. With a vector cache file (and an embedder
// that names its model) the cache is read from it on first use and
// written back, holding the vectors of recs only, when this call
// embedded anything.
func (g *Gateway) vectors(ctx context.Context, recs []*registry.Record) ([][]float32, error) {
	g.vecMu.Lock()
	defer g.vecMu.Unlock()
	idf, persist := g.embed.(Identified)
	persist = persist && g.vecFile != ""
	var id [32]byte
	if persist {
		id = identityHash(idf.Identity())
	}
	if g.vecs == nil {
		if persist {
			g.vecs = loadVectors(g.vecFile, id)
		}
		if g.vecs == nil {
			g.vecs = map[string][]float32{}
		}
	}
	key := func(r *registry.Record) string { return r.Digest + "\x00" + r.Name }
	var todo []int
	var texts []string
	for i, r := range recs {
		if _, ok := g.vecs[key(r)]; !ok {
			todo = append(todo, i)
			texts = append(texts, embedText(r))
		}
	}
	for start := 0; start < len(texts); start += 128 {
		end := min(start+128, len(texts))
		vs, err := g.embed.Embed(ctx, texts[start:end])
		if err != nil {
			return nil, err
		}
		for k, v := range vs {
			g.vecs[key(recs[todo[start+k]])] = toFloat32(v)
		}
	}
	out := make([][]float32, len(recs))
	for i, r := range recs {
		out[i] = g.vecs[key(r)]
	}
	if persist && len(todo) > 0 {
		live := make(map[string][]float32, len(recs))
		for i, r := range recs {
			live[key(r)] = out[i]
		}
		_ = saveVectors(g.vecFile, id, live) // a cache that cannot be written only costs calls
	}
	return out, nil
}

// fuse combines the lexical hits with a dense ranking of every visible
// skill by reciprocal rank fusion: each skill scores the sum of
// 1/(60+rank) over the rankings it appears in (the dense one cut at the
// lexical stage's candidate limit). The fused scores replace the BM25F
// ones.
func (g *Gateway) fuse(ctx context.Context, text string, hits []hit) ([]hit, error) {
	recs := g.reg.List()
	if len(recs) == 0 {
		return hits, nil
	}
	q, err := g.embed.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	qv := toFloat32(q[0])
	vs, err := g.vectors(ctx, recs)
	if err != nil {
		return nil, err
	}
	type dense struct {
		rec *registry.Record
		sim float64
	}
	ds := make([]dense, len(recs))
	for i, r := range recs {
		ds[i] = dense{r, cosine(qv, vs[i])}
	}
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].sim > ds[j].sim })
	score := map[*registry.Record]float64{}
	cover := map[*registry.Record]uint64{}
	for i, h := range hits {
		score[h.rec] += 1.0 / float64(rrfK+i+1)
		cover[h.rec] = h.cover
	}
	for i, d := range ds[:min(len(ds), g.cfg.MaxCandidates)] {
		if d.sim > 0 {
			score[d.rec] += 1.0 / float64(rrfK+i+1)
		}
	}
	out := make([]hit, 0, len(score))
	for r, s := range score {
		out = append(out, hit{rec: r, bm25: s, cover: cover[r]})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].bm25 != out[j].bm25 {
			return out[i].bm25 > out[j].bm25
		}
		return out[i].rec.ID < out[j].rec.ID
	})
	return out[:min(len(out), g.cfg.MaxCandidates)], nil
}

// cosine is the cosine similarity of a and b (0 when either is zero or
// their lengths differ).
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
