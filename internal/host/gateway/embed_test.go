package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeEmbeddings is an HTTP server speaking the OpenAI /v1/embeddings and
// Ollama /api/embed wire protocols. Its vectors have one dimension per
// concept of a small table (wonky, crash and bug are one concept), so texts
// sharing a concept are similar and others are orthogonal. It counts the
// texts it embedded and checks the bearer token.
func fakeEmbeddings(t *testing.T, token string, texts *atomic.Int64) *httptest.Server {
	concepts := map[string]int{"wonky": 0, "crash": 0, "crashes": 0, "bug": 0, "bugs": 0, "spreadsheet": 1, "workbook": 1}
	vec := func(s string) []float64 {
		v := make([]float64, 3)
		v[2] = 0 // no concept: the zero vector
		for _, w := range words(s) {
			if d, ok := concepts[w]; ok {
				v[d]++
			}
		}
		return v
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&in) != nil || in.Model != "embed-test" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		texts.Add(int64(len(in.Input)))
		switch r.URL.Path {
		case "/v1/embeddings":
			if r.Header.Get("Authorization") != "Bearer "+token {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			type item struct {
				Object    string    `json:"object"`
				Index     int       `json:"index"`
				Embedding []float64 `json:"embedding"`
			}
			out := struct {
				Object string `json:"object"`
				Data   []item `json:"data"`
			}{Object: "list"}
			// answered in reverse order: the index field decides
			for i := len(in.Input) - 1; i >= 0; i-- {
				out.Data = append(out.Data, item{"embedding", i, vec(in.Input[i])})
			}
			json.NewEncoder(w).Encode(out)
		case "/api/embed":
			out := struct {
				Model      string      `json:"model"`
				Embeddings [][]float64 `json:"embeddings"`
			}{Model: in.Model}
			for _, s := range in.Input {
				out.Embeddings = append(out.Embeddings, vec(s))
			}
			json.NewEncoder(w).Encode(out)
		default:
			http.NotFound(w, r)
		}
	}))
}

// TestSemanticStage runs discover over the catalog judged set with an
// embeddings endpoint (a real HTTP server speaking each protocol): an
// intent whose words no skill uses and the lexicon does not bridge
// ("wonky"; "crashes" is in related.txt) finds the debugging skill
// through the dense ranking fused by reciprocal rank, skills are embedded
// once (cached by digest), a wrong token fails loud without echoing it,
// and without an embedder the skill is not found.
func TestSemanticStage(t *testing.T) {
	reg := newRegistry(t, catalogDir)
	const intent = "the app acts wonky sometimes and I don't know why"
	lexical := New(Options{Registry: reg})
	if got := gatewayRanker(t, lexical)(intent); contains(first(got, 3), "systematic-debugging") {
		t.Fatalf("the lexical stage alone already finds it: %v", got)
	}
	for _, proto := range []string{"openai", "ollama"} {
		t.Run(proto, func(t *testing.T) {
			var texts atomic.Int64
			srv := fakeEmbeddings(t, "s3cret", &texts)
			defer srv.Close()
			base := srv.URL
			if proto == "openai" {
				base += "/v1"
			}
			g := New(Options{Registry: reg, Embedder: &HTTPEmbedder{Protocol: proto, BaseURL: base, Model: "embed-test", APIKey: "s3cret"}})
			got := gatewayRanker(t, g)(intent)
			if !contains(first(got, 3), "systematic-debugging") {
				t.Errorf("with embeddings: %v", first(got, 5))
			}
			n := texts.Load()
			if n != int64(len(reg.List())+1) {
				t.Errorf("embedded %d texts, want every skill once and the intent", n)
			}
			gatewayRanker(t, g)("my workbook totals are off")
			if d := texts.Load() - n; d != 1 {
				t.Errorf("a second discover embedded %d texts, want only the intent", d)
			}
			if proto == "openai" {
				bad := New(Options{Registry: reg, Embedder: &HTTPEmbedder{Protocol: proto, BaseURL: base, Model: "embed-test", APIKey: "wrong-token"}})
				_, err := bad.Discover(context.Background(), DiscoverRequest{Intent: intent})
				if err == nil || strings.Contains(err.Error(), "wrong-token") || !strings.Contains(err.Error(), "HTTP 401") {
					t.Errorf("a refused token: %v", err)
				}
			}
		})
	}
}

// TestPersistedVectors: with a vector cache file a second gateway (a new
// process's) over the same catalog embeds only the intent and ranks as
// the first did; an edited skill is embedded again alone; another model
// or a damaged file embeds everything again.
func TestPersistedVectors(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(catalogDir)); err != nil {
		t.Fatal(err)
	}
	reg := newRegistry(t, dir)
	n := int64(len(reg.List()))
	var texts atomic.Int64
	srv := fakeEmbeddings(t, "sk-vec-secret", &texts)
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "cache", "gateway.vec")
	emb := func(model string) *HTTPEmbedder {
		return &HTTPEmbedder{Protocol: "openai", BaseURL: srv.URL + "/v1", Model: model, APIKey: "sk-vec-secret"}
	}
	const intent = "the app acts wonky sometimes and I don't know why"
	// discover runs intent on a fresh gateway and returns the ranking and
	// the number of texts it embedded.
	discover := func(e Embedder) ([]string, int64) {
		t.Helper()
		before := texts.Load()
		got := gatewayRanker(t, New(Options{Registry: reg, Embedder: e, VectorCache: file}))(intent)
		return got, texts.Load() - before
	}
	first, k := discover(emb("embed-test"))
	if k != n+1 {
		t.Fatalf("first process embedded %d texts, want %d skills and the intent", k, n)
	}
	data, err := os.ReadFile(file)
	if err != nil || strings.Contains(string(data), "sk-vec-secret") || strings.Contains(string(data), srv.URL) {
		t.Fatalf("vector file: %v (it must hold neither the key nor the endpoint)", err)
	}
	second, k := discover(emb("embed-test"))
	if k != 1 || fmt.Sprint(second) != fmt.Sprint(first) {
		t.Errorf("second process embedded %d texts (want only the intent), ranking %v, first %v", k, second, first)
	}
	// an edited skill is embedded again, alone
	md := filepath.Join(dir, "systematic-debugging", "SKILL.md")
	src, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(md, []byte(strings.Replace(string(src), "root-cause process", "root-cause process for crashes", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	reg.Refresh()
	if _, k := discover(emb("embed-test")); k != 2 {
		t.Errorf("after one edit %d texts were embedded, want the edited skill and the intent", k)
	}
	if _, k := discover(emb("embed-test")); k != 1 {
		t.Errorf("the edit's vector was not persisted: %d texts embedded", k)
	}
	// another model's vectors are not reused
	if _, k := discover(&HTTPEmbedder{Protocol: "openai", BaseURL: srv.URL + "/v1/", Model: "embed-test", APIKey: "sk-vec-secret"}); k != n+1 {
		t.Errorf("another endpoint reused the vectors: %d texts embedded", k)
	}
	// a damaged file is ignored, then rewritten
	if err := os.WriteFile(file, []byte(vectorMagic+"garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, k := discover(emb("embed-test")); k != n+1 {
		t.Errorf("a damaged file: %d texts embedded", k)
	}
	if _, k := discover(emb("embed-test")); k != 1 {
		t.Errorf("after a damaged file the vectors were not rewritten: %d texts embedded", k)
	}
}
