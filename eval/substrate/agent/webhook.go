package agent

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// DefaultSignatureHeader carries the HMAC signature of the request body.
const DefaultSignatureHeader = "X-Skillscript-Signature"

// WebhookAgent is one agent's endpoints.
type WebhookAgent struct {
	URL string
	// WakeURL, when set, makes the agent wake-capable.
	WakeURL string
	Name    string
}

// WebhookOptions configures a Webhook connector.
type WebhookOptions struct {
	Agents map[string]WebhookAgent
	// BearerToken, when set, is sent as Authorization: Bearer.
	BearerToken string
	// HMACSecret, when set, signs each body: the signature header carries
	// "sha256=" + hex(HMAC-SHA256(secret, body)).
	HMACSecret      string
	SignatureHeader string // default DefaultSignatureHeader
	Client          *http.Client
	Timeout         time.Duration // per request; default 10s
	Now             func() time.Time
}

// Webhook delivers payloads by HTTP POST to per-agent URLs.
type Webhook struct{ opts WebhookOptions }

var _ contract.AgentConnector = (*Webhook)(nil)

// NewWebhook returns a webhook connector.
func NewWebhook(opts WebhookOptions) *Webhook {
	if opts.SignatureHeader == "" {
		opts.SignatureHeader = DefaultSignatureHeader
	}
	if opts.Client == nil {
		opts.Client = http.DefaultClient
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	return &Webhook{opts: opts}
}

// Sign returns the signature header value for body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is the valid signature of body under secret.
func Verify(secret string, body []byte, sig string) bool {
	return hmac.Equal([]byte(Sign(secret, body)), []byte(sig))
}

// ListAgents returns the configured agents, sorted.
func (w *Webhook) ListAgents(context.Context) ([]contract.AgentDescriptor, error) {
	ids := make([]string, 0, len(w.opts.Agents))
	for id := range w.opts.Agents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]contract.AgentDescriptor, len(ids))
	for i, id := range ids {
		a := w.opts.Agents[id]
		caps := []string{"deliver", "augment", "template"}
		if a.WakeURL != "" {
			caps = append(caps, "wake")
		}
		out[i] = contract.AgentDescriptor{AgentID: id, AgentName: a.Name, Capabilities: caps}
	}
	return out, nil
}

// agent resolves an address (bare or agent@session) to its config.
func (w *Webhook) agent(addr string) (WebhookAgent, string, error) {
	if a, ok := w.opts.Agents[addr]; ok {
		_, s := contract.SplitAgentAddress(addr)
		return a, s, nil
	}
	base, session := contract.SplitAgentAddress(addr)
	if a, ok := w.opts.Agents[base]; ok {
		return a, session, nil
	}
	return WebhookAgent{}, "", &contract.DeliveryFailedError{AgentID: addr, Reason: "agent is not configured for this webhook connector"}
}

// Deliver POSTs the payload to the agent's URL.
func (w *Webhook) Deliver(ctx context.Context, agentID string, p contract.DeliveryPayload) (contract.DeliveryReceipt, error) {
	if err := p.Validate(); err != nil {
		return contract.DeliveryReceipt{}, err
	}
	a, session, err := w.agent(agentID)
	if err != nil {
		return contract.DeliveryReceipt{}, err
	}
	body := p.Wire()
	body["agent_id"] = agentID
	if session != "" {
		body["session_id"] = session
	}
	reply, err := w.post(ctx, agentID, a.URL, body)
	if err != nil {
		return contract.DeliveryReceipt{}, err
	}
	return w.deliveryReceipt(reply, session), nil
}

// Wake POSTs to the wake URL, or degrades to a delivery with Woken false
// when the agent has none.
func (w *Webhook) Wake(ctx context.Context, agentID string, opts contract.WakeOptions) (contract.WakeReceipt, error) {
	a, _, err := w.agent(agentID)
	if err != nil {
		return contract.WakeReceipt{}, err
	}
	session := contract.ResolveSession(agentID, opts)
	if a.WakeURL == "" {
		return w.degradedWake(ctx, agentID, session, opts)
	}
	body := map[string]any{"agent_id": agentID, "context": opts.Context, "when": wakeWhen(opts)}
	if session != "" {
		body["session_id"] = session
	}
	reply, err := w.post(ctx, agentID, a.WakeURL, body)
	if err != nil {
		return contract.WakeReceipt{}, err
	}
	r := contract.WakeReceipt{WokenAt: w.stamp(reply, "woken_at", "wokenAt"), Woken: true, SessionID: session, Warnings: stringsOf(reply["warnings"])}
	if b, ok := reply["woken"].(bool); ok {
		r.Woken = b
	}
	if s, ok := reply["session_id"].(string); ok && s != "" {
		r.SessionID = s
	}
	return r, nil
}

func (w *Webhook) degradedWake(ctx context.Context, agentID, session string, opts contract.WakeOptions) (contract.WakeReceipt, error) {
	p := wakePayload(agentID, opts, nowMillis(w.opts.Now))
	rec, err := w.Deliver(ctx, agentID, p)
	if err != nil {
		return contract.WakeReceipt{}, err
	}
	warn := append([]string{fmt.Sprintf("agent %q has no wake_url: delivered without interrupting", agentID)}, rec.Warnings...)
	if rec.SessionID != "" {
		session = rec.SessionID
	}
	return contract.WakeReceipt{WokenAt: rec.DeliveredAt, Woken: false, SessionID: session, Warnings: warn}, nil
}

func wakeWhen(opts contract.WakeOptions) any {
	if opts.When > 0 {
		return opts.When
	}
	return "immediate"
}

// post sends body as signed JSON and decodes a JSON reply (an empty or
// non-JSON reply decodes to an empty map). Non-2xx statuses and transport
// failures are *contract.DeliveryFailedError.
func (w *Webhook) post(ctx context.Context, agentID, url string, body map[string]any) (map[string]any, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, &contract.DeliveryFailedError{AgentID: agentID, Reason: "encode payload", Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return nil, &contract.DeliveryFailedError{AgentID: agentID, Reason: "bad url " + url, Err: err}
	}
	w.authorize(req, data)
	resp, err := w.opts.Client.Do(req)
	if err != nil {
		return nil, &contract.DeliveryFailedError{AgentID: agentID, Reason: "POST " + url, Err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return nil, &contract.DeliveryFailedError{AgentID: agentID, Reason: fmt.Sprintf("POST %s: status %d: %s", url, resp.StatusCode, bytes.TrimSpace(raw))}
	}
	reply := map[string]any{}
	json.Unmarshal(raw, &reply) // tolerant: a bare 200 is a valid acknowledgement
	return reply, nil
}

func (w *Webhook) authorize(req *http.Request, body []byte) {
	req.Header.Set("Content-Type", "application/json")
	if w.opts.BearerToken != "" {
		req.Header.Set("Authorization", "Bearer "+w.opts.BearerToken)
	}
	if w.opts.HMACSecret != "" {
		req.Header.Set(w.opts.SignatureHeader, Sign(w.opts.HMACSecret, body))
	}
}

// deliveryReceipt synthesises a receipt from a substrate-shaped reply.
func (w *Webhook) deliveryReceipt(reply map[string]any, session string) contract.DeliveryReceipt {
	r := contract.DeliveryReceipt{DeliveredAt: w.stamp(reply, "delivered_at", "deliveredAt"), SessionID: session}
	r.DeliveryID = firstString(reply, "delivery_id", "deliveryId", "id")
	if s := firstString(reply, "session_id", "sessionId"); s != "" {
		r.SessionID = s
	}
	for _, k := range []string{"delivery_skipped", "deliverySkipped", "skipped"} {
		if b, ok := reply[k].(bool); ok && b {
			r.DeliverySkipped = true
		}
	}
	r.Warnings = stringsOf(reply["warnings"])
	return r
}

func (w *Webhook) stamp(reply map[string]any, keys ...string) int64 {
	for _, k := range keys {
		if f, ok := reply[k].(float64); ok && f > 0 {
			return int64(f)
		}
	}
	return nowMillis(w.opts.Now)
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case float64:
			return fmt.Sprint(int64(v))
		}
	}
	return ""
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// HealthCheck checks that every agent URL answers HTTP (any status).
func (w *Webhook) HealthCheck(ctx context.Context) error {
	if len(w.opts.Agents) == 0 {
		return fmt.Errorf("webhook agent connector has no agents configured")
	}
	for _, d := range mustList(w) {
		if err := w.probe(ctx, w.opts.Agents[d.AgentID].URL); err != nil {
			return fmt.Errorf("webhook agent %q unreachable: %w", d.AgentID, err)
		}
	}
	return nil
}

func mustList(w *Webhook) []contract.AgentDescriptor {
	ds, _ := w.ListAgents(context.Background())
	return ds
}

func (w *Webhook) probe(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return err
	}
	resp, err := w.opts.Client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// RequestResponse is not implemented.
func (w *Webhook) RequestResponse(context.Context, string, contract.DeliveryPayload, contract.RequestOptions) (contract.AgentResponse, error) {
	return contract.AgentResponse{}, notImplemented()
}
