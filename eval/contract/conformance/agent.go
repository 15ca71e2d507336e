package conformance

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// AgentProbe says which agent id the connector under test accepts.
type AgentProbe struct {
	// AgentID is an agent the connector is configured to reach.
	AgentID string
}

// TestAgentConnector runs the AgentConnector conformance suite.
func TestAgentConnector(t *testing.T, newConn func(t *testing.T) contract.AgentConnector, probe AgentProbe) {
	tests := []struct {
		name string
		fn   func(*testing.T, contract.AgentConnector, AgentProbe)
	}{
		{"HealthCheck", acHealth},
		{"ListAgents", acList},
		{"DeliverAugmentAndTemplate", acDeliver},
		{"DeliverRejectsUnknownKind", acBadKind},
		{"WakeNeverFailsForCapability", acWake},
		{"WakeSessionTargeting", acWakeSession},
		{"RequestResponseNotImplemented", acRequestResponse},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newConn(t), probe) })
	}
}

func payload(kind string) contract.DeliveryPayload {
	return contract.DeliveryPayload{Kind: kind, Content: "conformance " + kind, Meta: contract.DeliveryMeta{
		DispatchID: "conf-" + kind + "-" + time.Now().Format("150405.000000000"), SentAt: time.Now().UnixMilli(),
		Origin: contract.DeliveryOrigin{SkillName: "conformance", TriggerKind: contract.TriggerCLI},
	}}
}

func acHealth(t *testing.T, c contract.AgentConnector, _ AgentProbe) {
	if err := c.HealthCheck(context.Background()); err != nil {
		t.Errorf("HealthCheck: %v", err)
	}
}

func acList(t *testing.T, c contract.AgentConnector, _ AgentProbe) {
	if _, err := c.ListAgents(context.Background()); err != nil {
		t.Errorf("ListAgents: %v", err)
	}
}

func acDeliver(t *testing.T, c contract.AgentConnector, p AgentProbe) {
	before := time.Now().Add(-time.Second).UnixMilli()
	for _, kind := range []string{contract.KindAugment, contract.KindTemplate} {
		r, err := c.Deliver(context.Background(), p.AgentID, payload(kind))
		if err != nil {
			t.Fatalf("Deliver(%s): %v", kind, err)
		}
		if r.DeliveredAt < before {
			t.Errorf("Deliver(%s): delivered_at %d is not a current unix-ms time", kind, r.DeliveredAt)
		}
	}
}

func acBadKind(t *testing.T, c contract.AgentConnector, p AgentProbe) {
	if _, err := c.Deliver(context.Background(), p.AgentID, payload("binary")); err == nil {
		t.Error("Deliver accepted kind \"binary\"")
	}
}

func acWake(t *testing.T, c contract.AgentConnector, p AgentProbe) {
	r, err := c.Wake(context.Background(), p.AgentID, contract.WakeOptions{Context: "conformance wake"})
	if err != nil {
		t.Fatalf("Wake: %v (wake must degrade, not fail, on a passive substrate)", err)
	}
	if r.WokenAt <= 0 {
		t.Errorf("Wake: woken_at = %d", r.WokenAt)
	}
}

func acWakeSession(t *testing.T, c contract.AgentConnector, p AgentProbe) {
	ctx := context.Background()
	r, err := c.Wake(ctx, p.AgentID+"@tab-1", contract.WakeOptions{Context: "x"})
	if err != nil {
		t.Fatalf("Wake(agent@session): %v", err)
	}
	if r.SessionID != "" && r.SessionID != "tab-1" {
		t.Errorf("session echo = %q, want tab-1 or empty", r.SessionID)
	}
	r, err = c.Wake(ctx, p.AgentID+"@tab-1", contract.WakeOptions{Context: "x", SessionID: "tab-2"})
	if err != nil {
		t.Fatalf("Wake with opts.session_id: %v", err)
	}
	if r.SessionID != "" && r.SessionID != "tab-2" {
		t.Errorf("opts.session_id must win over the suffix: got %q", r.SessionID)
	}
}

func acRequestResponse(t *testing.T, c contract.AgentConnector, p AgentProbe) {
	_, err := c.RequestResponse(context.Background(), p.AgentID, payload(contract.KindAugment), contract.RequestOptions{})
	var ni *contract.NotImplementedError
	if !errors.As(err, &ni) {
		t.Errorf("RequestResponse err = %v, want *NotImplementedError", err)
	}
}
