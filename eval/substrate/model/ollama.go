package model

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// DefaultOllamaURL is used when neither the options nor OLLAMA_BASE_URL
// name an endpoint.
const DefaultOllamaURL = "http://127.0.0.1:11434"

// OllamaOptions configures an Ollama model.
type OllamaOptions struct {
	// BaseURL defaults to DefaultOllamaURL; callers usually pass the value
	// of OLLAMA_BASE_URL.
	BaseURL string
	// Model is the default model tag. It may be empty, in which case every
	// Run must name a model.
	Model     string
	MaxTokens int // default completion cap; 0 leaves it to Ollama
	Timeout   time.Duration
	Client    *http.Client
}

// Ollama is a contract.LocalModel over the Ollama HTTP API.
type Ollama struct {
	opts OllamaOptions
	api  *apiClient
}

var _ contract.LocalModel = (*Ollama)(nil)

// NewOllama returns an Ollama model.
func NewOllama(opts OllamaOptions) (*Ollama, error) {
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultOllamaURL
	}
	return &Ollama{opts: opts, api: newAPIClient(opts.BaseURL, opts.Client, opts.Timeout, "ollama")}, nil
}

type ollamaGenerate struct {
	Model   string         `json:"model"`
	Prompt  string         `json:"prompt"`
	System  string         `json:"system,omitempty"`
	Stream  bool           `json:"stream"`
	Options map[string]any `json:"options,omitempty"`
}

// Run calls /api/generate without streaming.
func (o *Ollama) Run(ctx context.Context, prompt string, opts contract.RunOptions) (string, error) {
	req := ollamaGenerate{Model: pick(opts.Model, o.opts.Model), Prompt: prompt, System: opts.System}
	if req.Model == "" {
		return "", fmt.Errorf("ollama: no model given: pass model= or set substrate.local_model.config.defaultModelTag in connectors.json")
	}
	options := map[string]any{}
	if n := pickInt(opts.MaxTokens, o.opts.MaxTokens); n > 0 {
		options["num_predict"] = n
	}
	if opts.Temperature != nil {
		options["temperature"] = *opts.Temperature
	}
	if len(options) > 0 {
		req.Options = options
	}
	var resp struct {
		Response string `json:"response"`
	}
	if err := o.api.do(ctx, http.MethodPost, "/api/generate", req, &resp); err != nil {
		return "", err
	}
	return resp.Response, nil
}

// Manifest lists the pulled models via /api/tags.
func (o *Ollama) Manifest(ctx context.Context) (contract.ModelManifest, error) {
	var resp struct {
		Models []struct {
			Name string `json:"name"`
			Size int64  `json:"size"`
		} `json:"models"`
	}
	if err := o.api.do(ctx, http.MethodGet, "/api/tags", nil, &resp); err != nil {
		return contract.ModelManifest{}, err
	}
	m := contract.ModelManifest{Implementation: "ollama", DefaultModel: o.opts.Model, Models: []contract.ModelInfo{}}
	for _, x := range resp.Models {
		m.Models = append(m.Models, contract.ModelInfo{Name: x.Name, Size: x.Size})
	}
	return m, nil
}

// HealthCheck checks the server answers /api/tags.
func (o *Ollama) HealthCheck(ctx context.Context) error {
	_, err := o.Manifest(ctx)
	return err
}

func pick(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func pickInt(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}
