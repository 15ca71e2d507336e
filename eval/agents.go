package eval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// namedAgent is an agent connector with the name receipts report.
type namedAgent struct {
	name string
	conn contract.AgentConnector
}

// agents returns the wired agent connectors, restricted to names when
// names is non-empty. A connector is named by its Name method if it has
// one, otherwise "agent<i>".
func (x *run) agents(names []string) []namedAgent {
	var out []namedAgent
	for i, c := range x.r.registry().Agents {
		name := fmt.Sprintf("agent%d", i)
		if n, ok := c.(interface{ Name() string }); ok {
			name = n.Name()
		}
		if len(names) == 0 || containsStr(names, name) {
			out = append(out, namedAgent{name: name, conn: c})
		}
	}
	return out
}

func containsStr(ss []string, s string) bool {
	for _, e := range ss {
		if e == s {
			return true
		}
	}
	return false
}

// meta builds the DeliveryMeta envelope of one dispatch.
func (x *run) meta(eventType, correlation string) contract.DeliveryMeta {
	var id [8]byte
	_, _ = rand.Read(id[:])
	trigger := x.r.Env.TriggerType
	if trigger == "" {
		trigger = contract.TriggerCLI
	}
	if eventType == "" {
		if h := x.f.Header(ast.HeaderEventType); h != nil {
			eventType = h.Value
		}
	}
	origin := contract.DeliveryOrigin{SkillName: x.skillName(), TriggerKind: trigger, CallerAgentID: x.r.Env.Caller}
	if x.entry != "" && x.entry != origin.SkillName {
		origin.EntrySkillName = x.entry
	}
	return contract.DeliveryMeta{
		DispatchID: hex.EncodeToString(id[:]), SentAt: x.r.clock().UnixMilli(),
		Origin: origin, EventType: eventType, CorrelationID: correlation,
	}
}

// skillName is the skill's # Skill: name, else its file name without the
// .skill.md extension.
func (x *run) skillName() string {
	if x.res.Skill != "" {
		return x.res.Skill
	}
	return strings.TrimSuffix(filepath.Base(x.f.Name), ".skill.md")
}

// send delivers content to agent through every connector in via, routing
// an agent@session address to Wake. It returns the per-connector ACK
// entries and records receipts.
func (x *run) send(ctx context.Context, source, agent, kind, content string, meta contract.DeliveryMeta, via []namedAgent) []any {
	dispatched := []any{}
	for _, a := range via {
		rc := Receipt{Source: source, Agent: agent, Kind: kind, Connector: a.name}
		id, err := x.sendOne(ctx, a.conn, agent, kind, content, meta)
		rc.OK, rc.DeliveryID = err == nil, id
		entry := value.NewObject(3)
		entry.Set("connector", a.name)
		entry.Set("ok", err == nil)
		if err != nil {
			rc.Error = redactTainted(err.Error(), x.flow)
			entry.Set("error", rc.Error)
		}
		x.res.Receipts = append(x.res.Receipts, rc)
		dispatched = append(dispatched, entry)
	}
	return dispatched
}

func (x *run) sendOne(ctx context.Context, c contract.AgentConnector, agent, kind, content string, meta contract.DeliveryMeta) (string, error) {
	if contract.IsSessionAddress(agent) {
		w, err := c.Wake(ctx, agent, contract.WakeOptions{Context: content, Meta: &meta})
		return w.SessionID, err
	}
	p := contract.DeliveryPayload{Kind: kind, Content: content, Meta: meta}
	rcpt, err := c.Deliver(ctx, agent, p)
	return rcpt.DeliveryID, err
}

func (x *run) opNotify(ctx context.Context, op *opCall) (any, error) {
	args, err := x.kwargs(op.args, x.opScope(op), false)
	if err != nil {
		return nil, err
	}
	agent := strings.TrimSpace(str(args, "agent"))
	if agent == "" {
		return nil, errorf(KindArgument, "notify needs agent=")
	}
	msg := strings.Join(redactedEmissions(x.res), "\n")
	if has(args, "message") {
		msg = redactTainted(str(args, "message"), x.flow)
	}
	msg = x.secrets.Redact(msg) // a delivery is an output boundary
	if x.mech {
		return placeholder("notify would alert %s: %s", agent, msg), nil
	}
	var names []string
	if v, ok := args.Get("connectors"); ok {
		list, _ := value.AsList(v)
		for _, e := range list {
			names = append(names, value.String(e))
		}
	}
	via := x.agents(names)
	if len(via) == 0 {
		x.notice("notify to " + agent + ": no agent connector is wired; nothing was delivered")
	}
	meta := x.meta(str(args, "event_type"), str(args, "correlation_id"))
	ack := value.NewObject(2)
	ack.Set("agent", agent)
	ack.Set("dispatched", x.send(ctx, "notify", agent, kindFor(agent, contract.KindAugment), msg, meta, via))
	return ack, nil
}

// kindFor is the receipt kind: wake for agent@session addresses.
func kindFor(agent, kind string) string {
	if contract.IsSessionAddress(agent) {
		return "wake"
	}
	return kind
}
