package contract

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Delivery payload kinds.
const (
	KindAugment  = "augment"
	KindTemplate = "template"
)

// Trigger kinds recorded in DeliveryOrigin.TriggerKind.
const (
	TriggerCron      = "cron"
	TriggerEvent     = "event"
	TriggerWebhook   = "webhook"
	TriggerAgent     = "agent"
	TriggerCLI       = "cli"
	TriggerDashboard = "dashboard"
	TriggerInline    = "inline"
)

// AgentDescriptor describes one agent a connector can reach.
type AgentDescriptor struct {
	AgentID      string   `json:"agent_id"`
	AgentName    string   `json:"agent_name,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
}

// DeliveryOrigin says which skill emitted a delivery and how it was fired.
type DeliveryOrigin struct {
	SkillName      string `json:"skill_name"`
	EntrySkillName string `json:"entry_skill_name,omitempty"`
	TriggerKind    string `json:"trigger_kind"`
	CallerAgentID  string `json:"caller_agent_id,omitempty"`
}

// DeliveryMeta is the envelope the runtime fills on every delivery.
// Connectors consume it; they never construct it.
type DeliveryMeta struct {
	// DispatchID is shared by every delivery of one notify() / # Output:.
	DispatchID string `json:"dispatch_id"`
	// SentAt is the runtime emit clock in unix milliseconds.
	SentAt        int64          `json:"sent_at"`
	Origin        DeliveryOrigin `json:"origin"`
	EventType     string         `json:"event_type,omitempty"`
	CorrelationID string         `json:"correlation_id,omitempty"`
}

// DeliveryPayload is what deliver() sends. Content carries the augment
// content or the template prompt, depending on Kind.
type DeliveryPayload struct {
	Kind    string
	Content string
	Meta    DeliveryMeta
}

// Wire returns the payload in its JSON wire shape: kind, content (augment)
// or prompt (template), and meta.
func (p DeliveryPayload) Wire() map[string]any {
	m := map[string]any{"kind": p.Kind, "meta": p.Meta}
	if p.Kind == KindTemplate {
		m["prompt"] = p.Content
	} else {
		m["content"] = p.Content
	}
	return m
}

// Validate reports a payload kind outside the closed set or a meta without
// a dispatch id.
func (p DeliveryPayload) Validate() error {
	if p.Kind != KindAugment && p.Kind != KindTemplate {
		return fmt.Errorf("delivery payload kind %q is not augment or template", p.Kind)
	}
	if p.Meta.DispatchID == "" {
		return fmt.Errorf("delivery meta has no dispatch_id")
	}
	return nil
}

// DeliveryReceipt acknowledges a delivery.
type DeliveryReceipt struct {
	DeliveredAt     int64    `json:"delivered_at"` // unix ms
	DeliveryID      string   `json:"delivery_id,omitempty"`
	SessionID       string   `json:"session_id,omitempty"`
	DeliverySkipped bool     `json:"delivery_skipped,omitempty"`
	Warnings        []string `json:"warnings,omitempty"`
}

// WakeOptions tunes wake(). The zero value wakes immediately. Its JSON
// form is the contract's snake_case wire shape.
type WakeOptions struct {
	Context string `json:"context,omitempty"`
	// When is a unix-ms time for a scheduled wake; 0 means immediate.
	When int64 `json:"when,omitempty"`
	// SessionID targets a session; it wins over an agent@session suffix.
	SessionID string `json:"session_id,omitempty"`
	// Meta is the runtime's envelope of the dispatch (dispatch id, emit
	// clock, origin). The wake wire has no envelope; a passive substrate
	// that stores the wake as a delivery uses it instead of minting one.
	Meta *DeliveryMeta `json:"-"`
}

// WakeReceipt acknowledges a wake.
type WakeReceipt struct {
	WokenAt   int64    `json:"woken_at"` // unix ms
	Woken     bool     `json:"woken"`
	SessionID string   `json:"session_id,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
}

// RequestOptions tunes RequestResponse.
type RequestOptions struct {
	Timeout time.Duration
}

// AgentResponse is a reply to RequestResponse.
type AgentResponse struct {
	Content       string
	CorrelationID string
	ReceivedAt    int64
}

// AgentConnector delivers skill output to frontier agents.
type AgentConnector interface {
	ListAgents(ctx context.Context) ([]AgentDescriptor, error)
	Deliver(ctx context.Context, agentID string, p DeliveryPayload) (DeliveryReceipt, error)
	// Wake rouses the agent. A substrate that cannot interrupt delivers the
	// context instead and returns Woken false; it never fails for that
	// reason. Operational faults are errors.
	Wake(ctx context.Context, agentID string, opts WakeOptions) (WakeReceipt, error)
	HealthCheck(ctx context.Context) error
	// RequestResponse is reserved for exchange(); bundled connectors return
	// a *NotImplementedError.
	RequestResponse(ctx context.Context, agentID string, p DeliveryPayload, opts RequestOptions) (AgentResponse, error)
}

// NotImplementedError reports a contract method a connector does not
// implement yet.
type NotImplementedError struct{ Method string }

// Error implements error.
func (e *NotImplementedError) Error() string { return e.Method + " is not implemented" }

// DeliveryFailedError reports a caller misconfiguration or substrate fault
// during delivery.
type DeliveryFailedError struct {
	AgentID string
	Reason  string
	Err     error
}

// Error implements error.
func (e *DeliveryFailedError) Error() string {
	msg := fmt.Sprintf("delivery to %q failed: %s", e.AgentID, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *DeliveryFailedError) Unwrap() error { return e.Err }

// SplitAgentAddress splits "agent@session" into its parts; a bare id has an
// empty session.
func SplitAgentAddress(addr string) (agent, session string) {
	agent, session, _ = strings.Cut(addr, "@")
	return agent, session
}

// IsSessionAddress reports whether addr is a composite agent@session, which
// the runtime routes to Wake instead of Deliver.
func IsSessionAddress(addr string) bool { return strings.Contains(addr, "@") }

// ResolveSession returns the session targeted by a wake: opts.SessionID
// when set, otherwise the suffix of an agent@session address.
func ResolveSession(agentID string, opts WakeOptions) string {
	if opts.SessionID != "" {
		return opts.SessionID
	}
	_, s := SplitAgentAddress(agentID)
	return s
}
