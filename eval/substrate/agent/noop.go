package agent

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// NoOp is the fallback agent connector: it accepts every delivery, drops
// it, and says so in the receipt's warnings (and on Log when set).
type NoOp struct {
	// Log receives one warning line per dropped delivery; nil is silent.
	Log io.Writer
	Now func() time.Time
}

var _ contract.AgentConnector = (*NoOp)(nil)

// ListAgents returns no agents.
func (n *NoOp) ListAgents(context.Context) ([]contract.AgentDescriptor, error) {
	return []contract.AgentDescriptor{}, nil
}

func (n *NoOp) warn(format string, args ...any) string {
	msg := fmt.Sprintf(format, args...)
	if n.Log != nil {
		fmt.Fprintln(n.Log, "warning: "+msg)
	}
	return msg
}

// Deliver drops the payload and returns a skipped receipt with a warning.
func (n *NoOp) Deliver(_ context.Context, agentID string, p contract.DeliveryPayload) (contract.DeliveryReceipt, error) {
	if err := p.Validate(); err != nil {
		return contract.DeliveryReceipt{}, err
	}
	w := n.warn("no agent connector is wired: %s delivery to %q was dropped (set substrate.agent_connector in connectors.json)", p.Kind, agentID)
	return contract.DeliveryReceipt{DeliveredAt: nowMillis(n.Now), DeliverySkipped: true, Warnings: []string{w}}, nil
}

// Wake reports woken false with a warning.
func (n *NoOp) Wake(_ context.Context, agentID string, opts contract.WakeOptions) (contract.WakeReceipt, error) {
	w := n.warn("no agent connector is wired: wake of %q was dropped (set substrate.agent_connector in connectors.json)", agentID)
	return contract.WakeReceipt{WokenAt: nowMillis(n.Now), Woken: false, SessionID: contract.ResolveSession(agentID, opts), Warnings: []string{w}}, nil
}

// HealthCheck always succeeds.
func (n *NoOp) HealthCheck(context.Context) error { return nil }

// RequestResponse is not implemented.
func (n *NoOp) RequestResponse(context.Context, string, contract.DeliveryPayload, contract.RequestOptions) (contract.AgentResponse, error) {
	return contract.AgentResponse{}, notImplemented()
}
