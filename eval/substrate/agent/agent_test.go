package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/contract/conformance"
)

// receiver is a real HTTP webhook receiver that verifies auth.
type receiver struct {
	mu       sync.Mutex
	bodies   []map[string]any
	paths    []string
	badAuth  int
	reply    string
	status   int
	secret   string
	token    string
	sessions map[string]bool
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		return
	}
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+rc.token || !Verify(rc.secret, body, r.Header.Get(DefaultSignatureHeader)) {
		rc.badAuth++
		http.Error(w, "bad auth", http.StatusUnauthorized)
		return
	}
	var m map[string]any
	json.Unmarshal(body, &m)
	rc.bodies = append(rc.bodies, m)
	rc.paths = append(rc.paths, r.URL.Path)
	if rc.status != 0 {
		w.WriteHeader(rc.status)
	}
	io.WriteString(w, rc.reply)
}

func newReceiver(t *testing.T) (*receiver, *httptest.Server) {
	rc := &receiver{secret: "s3cret", token: "tok"}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return rc, srv
}

func newWebhook(srv *httptest.Server, wake bool) *Webhook {
	a := WebhookAgent{URL: srv.URL + "/alice/inbox"}
	if wake {
		a.WakeURL = srv.URL + "/alice/wake"
	}
	return NewWebhook(WebhookOptions{Agents: map[string]WebhookAgent{"alice": a, "bob": {URL: srv.URL + "/bob"}}, BearerToken: "tok", HMACSecret: "s3cret"})
}

func TestWebhookConformance(t *testing.T) {
	conformance.TestAgentConnector(t, func(t *testing.T) contract.AgentConnector {
		_, srv := newReceiver(t)
		return newWebhook(srv, true)
	}, conformance.AgentProbe{AgentID: "alice"})
}

func TestFileDropConformance(t *testing.T) {
	conformance.TestAgentConnector(t, func(t *testing.T) contract.AgentConnector {
		return &FileDrop{Dir: filepath.Join(t.TempDir(), "drop")}
	}, conformance.AgentProbe{AgentID: "alice"})
}

func TestNoOpConformance(t *testing.T) {
	conformance.TestAgentConnector(t, func(t *testing.T) contract.AgentConnector { return &NoOp{} }, conformance.AgentProbe{AgentID: "alice"})
}

func meta() contract.DeliveryMeta {
	return contract.DeliveryMeta{DispatchID: "disp-1", SentAt: 1700000000000, EventType: "triage", CorrelationID: "corr-9",
		Origin: contract.DeliveryOrigin{SkillName: "child", EntrySkillName: "parent", TriggerKind: contract.TriggerCron, CallerAgentID: "web-ui"}}
}

func TestWebhookDeliverPayloadAndReceipt(t *testing.T) {
	rc, srv := newReceiver(t)
	rc.reply = `{"deliveredAt": 1700000000500, "id": "msg-7", "skipped": true, "warnings": ["rate-limit hint"]}`
	w := newWebhook(srv, false)
	r, err := w.Deliver(context.Background(), "alice@term-2", contract.DeliveryPayload{Kind: contract.KindTemplate, Content: "do the thing", Meta: meta()})
	if err != nil {
		t.Fatal(err)
	}
	want := contract.DeliveryReceipt{DeliveredAt: 1700000000500, DeliveryID: "msg-7", SessionID: "term-2", DeliverySkipped: true, Warnings: []string{"rate-limit hint"}}
	if !equalJSON(r, want) {
		t.Errorf("receipt = %+v, want %+v", r, want)
	}
	if rc.badAuth != 0 || len(rc.bodies) != 1 || rc.paths[0] != "/alice/inbox" {
		t.Fatalf("receiver saw bad auth %d, bodies %v, paths %v", rc.badAuth, rc.bodies, rc.paths)
	}
	b := rc.bodies[0]
	m := b["meta"].(map[string]any)
	origin := m["origin"].(map[string]any)
	if b["kind"] != "template" || b["prompt"] != "do the thing" || b["content"] != nil || b["session_id"] != "term-2" ||
		m["dispatch_id"] != "disp-1" || m["event_type"] != "triage" || m["correlation_id"] != "corr-9" ||
		origin["entry_skill_name"] != "parent" || origin["caller_agent_id"] != "web-ui" || origin["trigger_kind"] != "cron" {
		t.Errorf("payload = %v", b)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestWebhookBadSignatureRejected(t *testing.T) {
	_, srv := newReceiver(t)
	w := NewWebhook(WebhookOptions{Agents: map[string]WebhookAgent{"alice": {URL: srv.URL}}, BearerToken: "tok", HMACSecret: "wrong"})
	_, err := w.Deliver(context.Background(), "alice", contract.DeliveryPayload{Kind: "augment", Content: "x", Meta: meta()})
	var df *contract.DeliveryFailedError
	if !errors.As(err, &df) || !strings.Contains(err.Error(), "401") {
		t.Errorf("err = %v, want a delivery failure with status 401", err)
	}
}

func TestWebhookWake(t *testing.T) {
	rc, srv := newReceiver(t)
	ctx := context.Background()
	// Wake-capable agent: POST to the wake URL, woken true, opts.session_id wins.
	w := newWebhook(srv, true)
	r, err := w.Wake(ctx, "alice@t1", contract.WakeOptions{Context: "look now", SessionID: "t9"})
	if err != nil || !r.Woken || r.SessionID != "t9" || rc.paths[0] != "/alice/wake" || rc.bodies[0]["context"] != "look now" {
		t.Errorf("wake = %+v, %v; receiver %v %v", r, err, rc.paths, rc.bodies)
	}
	// No wake URL: degrade to delivery, woken false, never an error.
	r, err = w.Wake(ctx, "bob@t1", contract.WakeOptions{Context: "fyi"})
	if err != nil || r.Woken || r.SessionID != "t1" || len(r.Warnings) == 0 {
		t.Errorf("degraded wake = %+v, %v", r, err)
	}
	last := rc.bodies[len(rc.bodies)-1]
	if rc.paths[len(rc.paths)-1] != "/bob" || last["content"] != "fyi" || last["kind"] != "augment" {
		t.Errorf("degraded wake delivered %v to %s", last, rc.paths[len(rc.paths)-1])
	}
	// Unknown agent: misconfiguration is an error.
	if _, err := w.Wake(ctx, "carol", contract.WakeOptions{}); err == nil {
		t.Error("unknown agent should fail")
	}
	// Substrate fault on the wake URL: an error, not a degradation.
	rc.status = http.StatusInternalServerError
	if _, err := w.Wake(ctx, "alice", contract.WakeOptions{Context: "x"}); err == nil {
		t.Error("a 500 from the wake URL should fail")
	}
}

func TestWebhookHealthCheck(t *testing.T) {
	_, srv := newReceiver(t)
	if err := newWebhook(srv, false).HealthCheck(context.Background()); err != nil {
		t.Error(err)
	}
	url := srv.URL
	srv.Close()
	w := NewWebhook(WebhookOptions{Agents: map[string]WebhookAgent{"alice": {URL: url}}})
	if err := w.HealthCheck(context.Background()); err == nil {
		t.Error("health check against a closed receiver succeeded")
	}
	if err := NewWebhook(WebhookOptions{}).HealthCheck(context.Background()); err == nil {
		t.Error("no agents should fail the health check")
	}
}

func TestFileDropWritesDispatchFile(t *testing.T) {
	dir := t.TempDir()
	f := &FileDrop{Dir: dir, Agents: []string{"alice"}}
	r, err := f.Deliver(context.Background(), "alice@s1", contract.DeliveryPayload{Kind: "augment", Content: "hello", Meta: meta()})
	if err != nil || r.DeliveryID != "disp-1" || r.SessionID != "s1" {
		t.Fatalf("receipt %+v, %v", r, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "disp-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	json.Unmarshal(b, &rec)
	p := rec["payload"].(map[string]any)
	if rec["agent_id"] != "alice@s1" || p["content"] != "hello" || p["meta"].(map[string]any)["dispatch_id"] != "disp-1" {
		t.Errorf("drop file = %s", b)
	}
	if _, err := f.Deliver(context.Background(), "mallory", contract.DeliveryPayload{Kind: "augment", Meta: meta()}); err == nil {
		t.Error("unconfigured agent accepted")
	}
	w, err := f.Wake(context.Background(), "alice", contract.WakeOptions{Context: "wake up"})
	if err != nil || w.Woken {
		t.Errorf("wake = %+v, %v", w, err)
	}
	wakes, _ := filepath.Glob(filepath.Join(dir, "wake-*.json"))
	if len(wakes) != 1 {
		t.Errorf("wake files = %v", wakes)
	}
}

func TestNoOpWarns(t *testing.T) {
	var log bytes.Buffer
	n := &NoOp{Log: &log}
	r, err := n.Deliver(context.Background(), "alice", contract.DeliveryPayload{Kind: "augment", Meta: meta()})
	if err != nil || !r.DeliverySkipped || len(r.Warnings) != 1 || !strings.Contains(log.String(), "warning: no agent connector") {
		t.Errorf("receipt %+v, %v, log %q", r, err, log.String())
	}
}
