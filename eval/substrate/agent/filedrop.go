package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// FileDrop writes each delivery to <Dir>/<dispatch_id>.json. It cannot
// interrupt an agent, so Wake stores <Dir>/wake-<id>.json and reports
// Woken false.
type FileDrop struct {
	Dir string
	// Agents, when non-empty, is the closed set of agent ids accepted.
	Agents []string
	Now    func() time.Time
}

var _ contract.AgentConnector = (*FileDrop)(nil)

// fileRecord is the on-disk shape of a drop.
type fileRecord struct {
	AgentID     string                `json:"agent_id"`
	SessionID   string                `json:"session_id,omitempty"`
	Payload     map[string]any        `json:"payload"`
	DeliveredAt int64                 `json:"delivered_at"`
	Wake        *contract.WakeOptions `json:"wake,omitempty"`
}

// ListAgents returns the configured agents.
func (f *FileDrop) ListAgents(context.Context) ([]contract.AgentDescriptor, error) {
	ids := append([]string(nil), f.Agents...)
	sort.Strings(ids)
	out := make([]contract.AgentDescriptor, len(ids))
	for i, id := range ids {
		out[i] = contract.AgentDescriptor{AgentID: id, Capabilities: []string{"deliver", "augment", "template"}}
	}
	return out, nil
}

func (f *FileDrop) check(agentID string) error {
	if agentID == "" {
		return &contract.DeliveryFailedError{AgentID: agentID, Reason: "empty agent id"}
	}
	if len(f.Agents) == 0 {
		return nil
	}
	agent, _ := contract.SplitAgentAddress(agentID)
	for _, a := range f.Agents {
		if a == agentID || a == agent {
			return nil
		}
	}
	return &contract.DeliveryFailedError{AgentID: agentID, Reason: "agent is not configured for this file-drop connector"}
}

// Deliver writes the payload file.
func (f *FileDrop) Deliver(_ context.Context, agentID string, p contract.DeliveryPayload) (contract.DeliveryReceipt, error) {
	if err := p.Validate(); err != nil {
		return contract.DeliveryReceipt{}, err
	}
	if err := f.check(agentID); err != nil {
		return contract.DeliveryReceipt{}, err
	}
	_, session := contract.SplitAgentAddress(agentID)
	now := nowMillis(f.Now)
	rec := fileRecord{AgentID: agentID, SessionID: session, Payload: p.Wire(), DeliveredAt: now}
	if err := f.write(p.Meta.DispatchID+".json", rec); err != nil {
		return contract.DeliveryReceipt{}, &contract.DeliveryFailedError{AgentID: agentID, Reason: "write drop file", Err: err}
	}
	return contract.DeliveryReceipt{DeliveredAt: now, DeliveryID: p.Meta.DispatchID, SessionID: session}, nil
}

// Wake stores the wake context as a drop file and reports Woken false.
func (f *FileDrop) Wake(_ context.Context, agentID string, opts contract.WakeOptions) (contract.WakeReceipt, error) {
	if err := f.check(agentID); err != nil {
		return contract.WakeReceipt{}, err
	}
	now := nowMillis(f.Now)
	session := contract.ResolveSession(agentID, opts)
	p := wakePayload(agentID, opts, now)
	rec := fileRecord{AgentID: agentID, SessionID: session, Payload: p.Wire(), DeliveredAt: now, Wake: &opts}
	if err := f.write("wake-"+p.Meta.DispatchID+".json", rec); err != nil {
		return contract.WakeReceipt{}, &contract.DeliveryFailedError{AgentID: agentID, Reason: "write wake file", Err: err}
	}
	return contract.WakeReceipt{WokenAt: now, Woken: false, SessionID: session,
		Warnings: []string{"file-drop cannot interrupt an agent: wake stored as a delivery"}}, nil
}

func (f *FileDrop) write(name string, rec fileRecord) error {
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(f.Dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(f.Dir, name))
}

// HealthCheck verifies the directory is writable.
func (f *FileDrop) HealthCheck(context.Context) error {
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return fmt.Errorf("file-drop directory %s: %w", f.Dir, err)
	}
	tmp, err := os.CreateTemp(f.Dir, ".health-*")
	if err != nil {
		return fmt.Errorf("file-drop directory %s is not writable: %w", f.Dir, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// RequestResponse is not implemented.
func (f *FileDrop) RequestResponse(context.Context, string, contract.DeliveryPayload, contract.RequestOptions) (contract.AgentResponse, error) {
	return contract.AgentResponse{}, notImplemented()
}
