package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// DefaultTimeout bounds one model request when none is configured.
const DefaultTimeout = 120 * time.Second

// apiClient does JSON requests against one base URL.
type apiClient struct {
	base    string
	client  *http.Client
	timeout time.Duration
	header  http.Header
	backend string // for messages: "ollama", "openai"
}

func newAPIClient(base string, client *http.Client, timeout time.Duration, backend string) *apiClient {
	if client == nil {
		client = http.DefaultClient
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &apiClient{base: strings.TrimRight(base, "/"), client: client, timeout: timeout, header: http.Header{}, backend: backend}
}

// do sends a request with an optional JSON body and decodes the JSON reply
// into out.
func (c *apiClient) do(ctx context.Context, method, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return fmt.Errorf("%s: bad base url %q: %w", c.backend, c.base, err)
	}
	req.Header = c.header.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fmt.Errorf("%s: read reply: %w", c.backend, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: status %d: %s", c.backend, path, resp.StatusCode, apiMessage(raw))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: malformed reply: %w", c.backend, path, err)
	}
	return nil
}

func (c *apiClient) transportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s at %s: %w", c.backend, c.base, ctx.Err())
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return fmt.Errorf("%s is not reachable at %s (%v)%s", c.backend, c.base, op.Err, c.hint())
	}
	return fmt.Errorf("%s at %s: %w", c.backend, c.base, err)
}

func (c *apiClient) hint() string {
	if c.backend == "ollama" {
		return "; start it with `ollama serve` or set OLLAMA_BASE_URL"
	}
	return "; check OPENAI_BASE_URL"
}

// apiMessage extracts an error message from the common reply shapes
// {"error": "..."} and {"error": {"message": "..."}}.
func apiMessage(raw []byte) string {
	var m struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &m) == nil && len(m.Error) > 0 {
		var s string
		if json.Unmarshal(m.Error, &s) == nil {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(m.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
	}
	s := strings.TrimSpace(string(raw))
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}
