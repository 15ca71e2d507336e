package trace

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillscript/skillc/eval"
)

// stepClock advances 10ms per reading.
func stepClock() func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(10 * time.Millisecond); return t }
}

func TestRecorderOps(t *testing.T) {
	r := NewRecorder(stepClock(), nil)
	for _, ev := range []eval.Event{
		{Kind: "target", Skill: "s", Target: "run"},
		{Kind: "op", Skill: "s", Target: "run", Op: "shell", Line: 4},
		{Kind: "fallback", Skill: "s", Target: "run", Op: "shell", Line: 4, Detail: "exit 1"},
		{Kind: "op", Skill: "s", Target: "run", Op: "execute_skill", Line: 5},
		{Kind: "op", Skill: "child", Target: "t", Op: "shell", Line: 3, Depth: 1},
		{Kind: "error", Skill: "child", Target: "t", Op: "shell", Line: 3, Depth: 1, Detail: `shell binary "rm" is not on the shell allowlist`},
		{Kind: "done", Skill: "s"},
	} {
		r.Hook(ev)
	}
	res := &eval.Result{Status: "failed", Errors: []eval.ErrorInfo{{
		Kind: eval.KindChild, Target: "run", Op: "execute_skill", Range: &eval.Span{Line: 5},
		Nested: []eval.ErrorInfo{{Kind: eval.KindShellNotAllowed, Target: "t", Op: "shell", Range: &eval.Span{Line: 3}}},
	}}}
	ops := r.Ops(res)
	type row struct {
		Skill, Op, Outcome, Kind string
		Depth                    int
		Dur                      time.Duration
	}
	var got []row
	for _, o := range ops {
		got = append(got, row{o.Skill, o.Op, o.Outcome, o.ErrorKind, o.Depth, o.Duration})
	}
	want := []row{
		{"s", "shell", OutcomeFallback, "", 0, 10 * time.Millisecond},
		{"s", "execute_skill", OutcomeError, eval.KindChild, 0, 30 * time.Millisecond},
		{"child", "shell", OutcomeRefused, eval.KindShellNotAllowed, 1, 10 * time.Millisecond},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ops (-want +got):\n%s", d)
	}
}

func TestRedactInputs(t *testing.T) {
	in := map[string]any{
		"WHO": "Ada", "api_token": "abc", "NOTE": "uses sk-123 inside",
		"LIST": []any{"sk-123", "ok"}, "NESTED": map[string]any{"Password": "x", "v": 1.0},
	}
	got := RedactInputs(in, []string{"sk-123", ""})
	want := map[string]any{
		"WHO": "Ada", "api_token": Redacted, "NOTE": Redacted,
		"LIST": []any{Redacted, "ok"}, "NESTED": map[string]any{"Password": Redacted, "v": 1.0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("redacted (-want +got):\n%s", d)
	}
}

func TestStoreLifecycle(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "t", FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i, id := range []string{"a", "b", "c"} {
		r := &Run{ID: id, Skill: "s", ContentHash: "h", Trigger: "cli", StartedAt: t0.Add(time.Duration(i) * time.Second)}
		if err := st.Begin(ctx, r, "# Skill: s\n"); err != nil {
			t.Fatal(err)
		}
	}
	ok := &eval.Result{Status: "ok", Outputs: eval.Outputs{Text: "done"}}
	if err := st.Finish(ctx, "a", ok, nil, t0.Add(40*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := st.Finish(ctx, "b", &eval.Result{Status: "failed"}, nil, t0.Add(1100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if n, err := st.Recover(ctx, "restart"); err != nil || n != 1 {
		t.Errorf("Recover = %d, %v", n, err)
	}
	runs, _ := st.Fires(ctx, Filter{Skill: "s"})
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID+"/"+r.Status)
	}
	if d := cmp.Diff([]string{"c/aborted", "b/failed", "a/ok"}, ids); d != "" {
		t.Errorf("fires (-want +got):\n%s", d)
	}
	r, src, err := st.Get(ctx, "a")
	if err != nil || src != "# Skill: s\n" || r.Output != "done" || r.DurationMS != 40 {
		t.Errorf("Get = %+v %q %v", r, src, err)
	}
	if _, _, err := st.Get(ctx, "zz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get unknown = %v", err)
	}
	hs, _ := st.Health(ctx, "", time.Time{})
	if len(hs) != 1 || hs[0].Runs != 3 || hs[0].OK != 1 || hs[0].Failed != 1 || hs[0].Aborted != 1 || hs[0].P50MS != 40 {
		t.Errorf("health = %+v", hs)
	}
}

func TestPercentile(t *testing.T) {
	v := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if percentile(v, 50) != 5 || percentile(v, 99) != 10 || percentile(nil, 50) != 0 || percentile([]int64{7}, 99) != 7 {
		t.Error("percentile")
	}
}
