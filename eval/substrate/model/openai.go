package model

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// DefaultOpenAIURL is used when neither the options nor OPENAI_BASE_URL
// name an endpoint.
const DefaultOpenAIURL = "https://api.openai.com/v1"

// OpenAIOptions configures an OpenAI-compatible model.
type OpenAIOptions struct {
	BaseURL   string // defaults to DefaultOpenAIURL (callers pass OPENAI_BASE_URL)
	APIKey    string // callers pass OPENAI_API_KEY
	Model     string // required
	MaxTokens int
	Timeout   time.Duration
	Client    *http.Client
}

// OpenAI is a contract.LocalModel over an OpenAI-compatible API.
type OpenAI struct {
	opts OpenAIOptions
	api  *apiClient
}

var _ contract.LocalModel = (*OpenAI)(nil)

// NewOpenAI returns an OpenAI-compatible model. The hosted endpoint needs
// an API key; self-hosted compatible servers may not.
func NewOpenAI(opts OpenAIOptions) (*OpenAI, error) {
	if opts.Model == "" {
		return nil, fmt.Errorf("openai: a model name is required")
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultOpenAIURL
	}
	if opts.APIKey == "" && strings.Contains(opts.BaseURL, "api.openai.com") {
		return nil, fmt.Errorf("openai: OPENAI_API_KEY is not set")
	}
	api := newAPIClient(opts.BaseURL, opts.Client, opts.Timeout, "openai")
	if opts.APIKey != "" {
		api.header.Set("Authorization", "Bearer "+opts.APIKey)
	}
	return &OpenAI{opts: opts, api: api}, nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
	Temperature *float64      `json:"temperature,omitempty"`
}

// Run calls /chat/completions and returns the first choice's content.
func (o *OpenAI) Run(ctx context.Context, prompt string, opts contract.RunOptions) (string, error) {
	req := chatRequest{Model: pick(opts.Model, o.opts.Model), MaxTokens: pickInt(opts.MaxTokens, o.opts.MaxTokens), Temperature: opts.Temperature}
	if opts.System != "" {
		req.Messages = append(req.Messages, chatMessage{Role: "system", Content: opts.System})
	}
	req.Messages = append(req.Messages, chatMessage{Role: "user", Content: prompt})
	var resp struct {
		Choices []struct {
			Message chatMessage `json:"message"`
		} `json:"choices"`
	}
	if err := o.api.do(ctx, http.MethodPost, "/chat/completions", req, &resp); err != nil {
		return "", err
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("openai: reply has no choices")
	}
	return resp.Choices[0].Message.Content, nil
}

// Manifest lists the models via /models.
func (o *OpenAI) Manifest(ctx context.Context) (contract.ModelManifest, error) {
	var resp struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := o.api.do(ctx, http.MethodGet, "/models", nil, &resp); err != nil {
		return contract.ModelManifest{}, err
	}
	m := contract.ModelManifest{Implementation: "openai", DefaultModel: o.opts.Model, Models: []contract.ModelInfo{}}
	for _, x := range resp.Data {
		m.Models = append(m.Models, contract.ModelInfo{Name: x.ID})
	}
	return m, nil
}

// HealthCheck checks the server answers /models.
func (o *OpenAI) HealthCheck(ctx context.Context) error {
	_, err := o.Manifest(ctx)
	return err
}
