package trace

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillscript/skillc/eval"
)

func TestConnectorOf(t *testing.T) {
	for op, want := range map[string]string{
		"$ github.create_issue": "github", "$ fetch": "$ fetch", "shell": "", "$set": "", "$": "", "$ .x": "$ .x",
	} {
		if got := ConnectorOf(op); got != want {
			t.Errorf("ConnectorOf(%q) = %q, want %q", op, got, want)
		}
	}
}

// TestConnectorsHealth records two runs through a real store and checks
// the per-connector summary: calls by outcome, latency, last error, and
// that non-dispatch ops and runs before since are left out.
func TestConnectorsHealth(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	op := func(name, outcome, detail string, ms int, at time.Duration) Op {
		return Op{Skill: "s", Target: "run", Op: name, Line: 3, StartedAt: t0.Add(at), Duration: time.Duration(ms) * time.Millisecond, Outcome: outcome, Detail: detail}
	}
	runs := []struct {
		id  string
		at  time.Duration
		ops []Op
	}{
		{"old", -time.Hour, []Op{op("$ github.list", OutcomeError, "ancient", 5, -time.Hour)}},
		{"a", 0, []Op{op("$ github.list", OutcomeOK, "", 20, 0), op("shell", OutcomeOK, "", 1, time.Millisecond), op("$ fetch", OutcomeFallback, "timeout", 300, 2*time.Millisecond)}},
		{"b", time.Second, []Op{op("$ github.create_issue", OutcomeError, "HTTP 502", 40, time.Second), op("$ github.list", OutcomeRefused, "not approved", 0, time.Second+time.Millisecond)}},
	}
	for _, r := range runs {
		if err := st.Begin(ctx, &Run{ID: r.id, Skill: "s", ContentHash: "h", Trigger: "cli", StartedAt: t0.Add(r.at)}, "# Skill: s\n"); err != nil {
			t.Fatal(err)
		}
		if err := st.Finish(ctx, r.id, &eval.Result{Status: "ok"}, r.ops, t0.Add(r.at+time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Connectors(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	last := func(d time.Duration) *time.Time { x := t0.Add(d).UTC(); return &x }
	want := []ConnectorHealth{
		{Connector: "$ fetch", Calls: 1, Fallbacks: 1, P50MS: 300, P99MS: 300, LastCall: last(2 * time.Millisecond), LastError: "timeout"},
		{Connector: "github", Calls: 3, OK: 1, Errors: 1, Refused: 1, P50MS: 20, P99MS: 40, LastCall: last(time.Second + time.Millisecond), LastError: "not approved"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Connectors (-want +got):\n%s", d)
	}
}
