package model

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/contract/conformance"
)

// fakeOllama speaks the Ollama wire format.
type fakeOllama struct {
	mu   sync.Mutex
	last map[string]any
	hang bool
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api/tags":
		io := `{"models":[{"name":"gemma2:9b","size":5400000000},{"name":"qwen2.5:7b","size":4700000000}]}`
		w.Write([]byte(io))
	case "/api/generate":
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.last = req
		hang := f.hang
		f.mu.Unlock()
		if hang {
			<-r.Context().Done()
			return
		}
		if req["model"] == "missing:1b" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"model 'missing:1b' not found, try pulling it first"}`))
			return
		}
		if req["stream"] != false {
			http.Error(w, "expected stream false", http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"model": req["model"], "response": "echo: " + req["prompt"].(string), "done": true})
	default:
		http.NotFound(w, r)
	}
}

func TestOllamaConformance(t *testing.T) {
	conformance.TestLocalModel(t, func(t *testing.T) contract.LocalModel {
		srv := httptest.NewServer(&fakeOllama{})
		t.Cleanup(srv.Close)
		m, err := NewOllama(OllamaOptions{BaseURL: srv.URL, Model: "gemma2:9b"})
		if err != nil {
			t.Fatal(err)
		}
		return m
	})
}

func TestOllamaRequestShape(t *testing.T) {
	f := &fakeOllama{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	m, _ := NewOllama(OllamaOptions{BaseURL: srv.URL + "/", Model: "gemma2:9b", MaxTokens: 99})
	temp := 0.2
	out, err := m.Run(context.Background(), "classify", contract.RunOptions{Model: "qwen2.5:7b", MaxTokens: 10, System: "be terse", Temperature: &temp})
	if err != nil || out != "echo: classify" {
		t.Fatalf("Run = %q, %v", out, err)
	}
	opts := f.last["options"].(map[string]any)
	if f.last["model"] != "qwen2.5:7b" || f.last["system"] != "be terse" || opts["num_predict"] != float64(10) || opts["temperature"] != 0.2 {
		t.Errorf("request = %v", f.last)
	}
	m.Run(context.Background(), "x", contract.RunOptions{})
	if f.last["model"] != "gemma2:9b" || f.last["options"].(map[string]any)["num_predict"] != float64(99) {
		t.Errorf("defaults not applied: %v", f.last)
	}
	man, err := m.Manifest(context.Background())
	if err != nil || len(man.Models) != 2 || man.Models[1].Name != "qwen2.5:7b" {
		t.Errorf("manifest = %+v, %v", man, err)
	}
	_, err = m.Run(context.Background(), "x", contract.RunOptions{Model: "missing:1b"})
	if err == nil || !strings.Contains(err.Error(), "not found, try pulling") {
		t.Errorf("missing model err = %v", err)
	}
}

func TestOllamaAbsentIsClear(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	m, _ := NewOllama(OllamaOptions{BaseURL: url, Model: "gemma2:9b"})
	_, err := m.Run(context.Background(), "x", contract.RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "not reachable") || !strings.Contains(err.Error(), "OLLAMA_BASE_URL") {
		t.Errorf("err = %v", err)
	}
	noTag, _ := NewOllama(OllamaOptions{BaseURL: url})
	if _, err := noTag.Run(context.Background(), "x", contract.RunOptions{}); err == nil || !strings.Contains(err.Error(), "defaultModelTag") {
		t.Errorf("no model tag: err = %v", err)
	}
}

func TestOllamaTimeout(t *testing.T) {
	srv := httptest.NewServer(&fakeOllama{hang: true})
	defer srv.Close()
	m, _ := NewOllama(OllamaOptions{BaseURL: srv.URL, Model: "m", Timeout: 100 * time.Millisecond})
	start := time.Now()
	if _, err := m.Run(context.Background(), "x", contract.RunOptions{}); err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Error("timeout not honoured")
	}
}

// fakeOpenAI speaks the chat-completions wire format and checks the key.
func fakeOpenAI(t *testing.T, last *map[string]any) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`))
			return
		}
		switch r.URL.Path {
		case "/v1/models":
			w.Write([]byte(`{"object":"list","data":[{"id":"gpt-4o-mini","object":"model"}]}`))
		case "/v1/chat/completions":
			var req map[string]any
			json.NewDecoder(r.Body).Decode(&req)
			*last = req
			msgs := req["messages"].([]any)
			user := msgs[len(msgs)-1].(map[string]any)["content"].(string)
			json.NewEncoder(w).Encode(map[string]any{"id": "c1", "object": "chat.completion",
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": "re: " + user}, "finish_reason": "stop"}}})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestOpenAIConformance(t *testing.T) {
	conformance.TestLocalModel(t, func(t *testing.T) contract.LocalModel {
		var last map[string]any
		srv := fakeOpenAI(t, &last)
		m, err := NewOpenAI(OpenAIOptions{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "gpt-4o-mini"})
		if err != nil {
			t.Fatal(err)
		}
		return m
	})
}

func TestOpenAIRequestShapeAndErrors(t *testing.T) {
	var last map[string]any
	srv := fakeOpenAI(t, &last)
	m, _ := NewOpenAI(OpenAIOptions{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "gpt-4o-mini"})
	out, err := m.Run(context.Background(), "hi", contract.RunOptions{MaxTokens: 5, System: "sys"})
	if err != nil || out != "re: hi" {
		t.Fatalf("Run = %q, %v", out, err)
	}
	msgs := last["messages"].([]any)
	if last["max_tokens"] != float64(5) || len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" {
		t.Errorf("request = %v", last)
	}
	bad, _ := NewOpenAI(OpenAIOptions{BaseURL: srv.URL + "/v1", APIKey: "wrong", Model: "m"})
	if _, err := bad.Run(context.Background(), "x", contract.RunOptions{}); err == nil || !strings.Contains(err.Error(), "Incorrect API key") {
		t.Errorf("bad key err = %v", err)
	}
	if _, err := NewOpenAI(OpenAIOptions{Model: "gpt-4o"}); err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("hosted endpoint without key: %v", err)
	}
}
