package trace

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
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

// backends runs fn against a fresh store on each backend: SQLite in a
// temp dir and Postgres (pgtest: skipped loudly when the server binaries
// are absent, failing under CI=true). open returns another handle on the
// same database, as a second host would open it.
func backends(t *testing.T, fn func(t *testing.T, open func(t *testing.T) *Store)) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "t", FileName)
		fn(t, func(t *testing.T) *Store {
			st, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.Start(t)
		fn(t, func(t *testing.T) *Store {
			st, err := OpenDatabase(context.Background(), url, "")
			if err != nil {
				t.Fatal(err)
			}
			if !st.Shared() || st.Backend() != "postgres" {
				t.Fatalf("%s opened as %s", url, st.Backend())
			}
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
}

func TestStoreLifecycle(t *testing.T) {
	backends(t, func(t *testing.T, open func(t *testing.T) *Store) {
		st := open(t)
		ctx := context.Background()
		t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
		for i, id := range []string{"a", "b", "c"} {
			r := &Run{ID: id, Skill: "s", ContentHash: "h", Trigger: "cli", StartedAt: t0.Add(time.Duration(i) * time.Second), Mechanical: i == 1}
			if err := st.Begin(ctx, r, "# Skill: s\n"); err != nil {
				t.Fatal(err)
			}
		}
		ok := &eval.Result{Status: "ok", Outputs: eval.Outputs{Text: "done"}, DeadlineExceeded: true}
		ops := []Op{{Skill: "s", Target: "run", Op: "shell", Line: 4, StartedAt: t0, Duration: 1500 * time.Microsecond, Outcome: OutcomeOK}}
		if err := st.Finish(ctx, "a", ok, ops, t0.Add(40*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if err := st.Finish(ctx, "b", &eval.Result{Status: "failed"}, nil, t0.Add(1100*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if n, err := st.Recover(ctx, "restart"); err != nil || n != 1 {
			t.Errorf("Recover = %d, %v", n, err)
		}
		runs, err := st.Fires(ctx, Filter{Skill: "s"})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range runs {
			ids = append(ids, r.ID+"/"+r.Status)
		}
		if d := cmp.Diff([]string{"c/aborted", "b/failed", "a/ok"}, ids); d != "" {
			t.Errorf("fires (-want +got):\n%s", d)
		}
		if !runs[1].Mechanical || runs[2].Mechanical {
			t.Errorf("mechanical flags: b=%v a=%v", runs[1].Mechanical, runs[2].Mechanical)
		}
		if since, _ := st.Fires(ctx, Filter{Since: t0.Add(time.Second), Limit: 1}); len(since) != 1 || since[0].ID != "c" {
			t.Errorf("fires since, limit 1 = %+v", since)
		}
		r, src, err := st.Get(ctx, "a")
		if err != nil || src != "# Skill: s\n" || r.Output != "done" || r.DurationMS != 40 || !r.DeadlineExceeded {
			t.Fatalf("Get = %+v %q %v", r, src, err)
		}
		if len(r.Ops) != 1 || r.Ops[0].Duration != 1500*time.Microsecond || r.Ops[0].Line != 4 {
			t.Errorf("ops = %+v", r.Ops)
		}
		if _, _, err := st.Get(ctx, "zz"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get unknown = %v", err)
		}
		hs, err := st.Health(ctx, "", time.Time{})
		if err != nil || len(hs) != 1 || hs[0].Runs != 3 || hs[0].OK != 1 || hs[0].Failed != 1 || hs[0].Aborted != 1 || hs[0].P50MS != 40 || hs[0].DeadlineExceeded != 1 {
			t.Errorf("health = %+v, %v", hs, err)
		}
	})
}

// A run refused by a host's approval gate is recorded with status
// refused, counted as refused (not failed) by Health, and, being an
// autonomous fire that did not run, routed to the supervisor once.
func TestStoreRefusedAndSupervised(t *testing.T) {
	backends(t, func(t *testing.T, open func(t *testing.T) *Store) {
		st := open(t)
		ctx := context.Background()
		refusal := eval.ErrorInfo{Kind: "ApprovalSignatureError", Message: "door is not signed"}
		id, err := st.Refused(ctx, Run{Skill: "door", Trigger: "event"}, "# Skill: door\n", map[string]any{"KEY": "sk-1"}, []string{"sk-1"}, refusal)
		if err != nil {
			t.Fatal(err)
		}
		r, src, err := st.Get(ctx, id)
		if err != nil || r.Status != StatusRefused || src != "# Skill: door\n" || len(r.Errors) != 1 || r.Errors[0].Kind != refusal.Kind || r.Inputs["KEY"] != Redacted {
			t.Fatalf("refused run = %+v %q %v", r, src, err)
		}
		hs, err := st.Health(ctx, "door", time.Time{})
		if err != nil || len(hs) != 1 || hs[0].Refused != 1 || hs[0].Failed != 0 || hs[0].Runs != 1 {
			t.Errorf("health = %+v, %v", hs, err)
		}
		un, err := st.Unsupervised(ctx, "supervisor", 0)
		if err != nil || len(un) != 1 || un[0].ID != id {
			t.Fatalf("unsupervised = %+v, %v", un, err)
		}
		if first, err := st.MarkSupervised(ctx, id); !first || err != nil {
			t.Errorf("MarkSupervised = %v, %v", first, err)
		}
		if again, err := st.MarkSupervised(ctx, id); again || err != nil {
			t.Errorf("second MarkSupervised = %v, %v", again, err)
		}
		if un, err := st.Unsupervised(ctx, "supervisor", 0); err != nil || len(un) != 0 {
			t.Errorf("unsupervised after marking = %+v, %v", un, err)
		}
	})
}

func TestStoreBlockedShell(t *testing.T) {
	backends(t, func(t *testing.T, open func(t *testing.T) *Store) {
		st := open(t)
		ctx := context.Background()
		t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
		if err := st.Begin(ctx, &Run{ID: "x", Skill: "s", ContentHash: "h", Trigger: "cli", StartedAt: t0}, ""); err != nil {
			t.Fatal(err)
		}
		ops := []Op{
			{Skill: "s", Target: "run", Op: "shell", Line: 3, StartedAt: t0, Outcome: OutcomeRefused, ErrorKind: eval.KindShellNotAllowed, Detail: `shell binary "rm" is not on the shell allowlist`},
			{Skill: "s", Target: "run", Op: "shell", Line: 4, StartedAt: t0.Add(time.Millisecond), Outcome: OutcomeOK},
		}
		if err := st.Finish(ctx, "x", &eval.Result{Status: "failed"}, ops, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		bl, err := st.BlockedShell(ctx, time.Time{}, 0)
		if err != nil || len(bl) != 1 || bl[0].Binary != "rm" || bl[0].Reason != "binary-not-allowed" || bl[0].TraceID != "x" {
			t.Errorf("blocked = %+v, %v", bl, err)
		}
		if hs, _ := st.Health(ctx, "s", time.Time{}); len(hs) != 1 || hs[0].Refusals != 1 {
			t.Errorf("health refusals = %+v", hs)
		}
	})
}

// Two hosts on one store: each sees the other's runs, and a restarting
// host closes only the rows it left running on a shared (Postgres)
// store, while a SQLite store (one host's) closes them all.
func TestStoreTwoHosts(t *testing.T) {
	backends(t, func(t *testing.T, open func(t *testing.T) *Store) {
		a, b := open(t), open(t)
		a.SetHost("m:/home/a")
		b.SetHost("m:/home/b")
		ctx := context.Background()
		t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
		for _, p := range []struct {
			st *Store
			id string
		}{{a, "ra"}, {b, "rb"}} {
			if err := p.st.Begin(ctx, &Run{ID: p.id, Skill: "s", ContentHash: "h", Trigger: "cron", StartedAt: t0}, ""); err != nil {
				t.Fatal(err)
			}
		}
		got, _, err := b.Get(ctx, "ra")
		if err != nil || got.Host != "m:/home/a" || got.Status != StatusRunning {
			t.Fatalf("host b reads host a's run: %+v %v", got, err)
		}
		n, err := b.Recover(ctx, "restart")
		want := map[bool]int{true: 1, false: 2}[b.Shared()]
		if err != nil || n != want {
			t.Errorf("Recover on %s = %d, %v; want %d", b.Backend(), n, err, want)
		}
		ra, _, _ := a.Get(ctx, "ra")
		if b.Shared() && ra.Status != StatusRunning {
			t.Errorf("host b's restart aborted host a's live run: %s", ra.Status)
		}
	})
}

// A SQLite store written before runs had a host column gains it on open,
// keeping its rows.
func TestStoreAddsHostColumn(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(schema, ",\n\thost TEXT NOT NULL DEFAULT ''", "", 1)
	if old == schema {
		t.Fatal("schema no longer has the host column this test removes")
	}
	if _, err := db.Exec(old + supervisedSchema); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO runs(id, skill, content_hash, trigger_kind, inputs, status, started_at) VALUES('old', 's', 'h', 'cli', '{}', 'ok', 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, _, err := st.Get(context.Background(), "old")
	if err != nil || r.Host != "" || r.Status != StatusOK {
		t.Errorf("old row = %+v, %v", r, err)
	}
}

func TestRebind(t *testing.T) {
	q := "SELECT a FROM t WHERE x = ? AND y IN (?, ?) LIMIT ?"
	if got := sqliteDialect.rebind(q); got != q {
		t.Errorf("sqlite rebind = %q", got)
	}
	if got, want := postgresDialect.rebind(q), "SELECT a FROM t WHERE x = $1 AND y IN ($2, $3) LIMIT $4"; got != want {
		t.Errorf("postgres rebind = %q, want %q", got, want)
	}
}

func TestPercentile(t *testing.T) {
	v := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if percentile(v, 50) != 5 || percentile(v, 99) != 10 || percentile(nil, 50) != 0 || percentile([]int64{7}, 99) != 7 {
		t.Error("percentile")
	}
}

// Hosts starting together on one fresh Postgres create the schema once
// (the advisory lock), none failing on a concurrent CREATE TABLE.
func TestPostgresConcurrentOpen(t *testing.T) {
	url := pgtest.Start(t)
	const n = 4
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			st, err := OpenPostgres(context.Background(), url)
			if err == nil {
				err = st.Close()
			}
			errs <- err
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Errorf("concurrent open: %v", err)
		}
	}
}

// A Postgres URL that does not answer is an error naming the database
// without its password, not a hang.
func TestPostgresUnreachable(t *testing.T) {
	_, err := OpenDatabase(context.Background(), "postgres://u:secretpw@127.0.0.1:1/db?sslmode=disable&connect_timeout=2", "")
	if err == nil || strings.Contains(err.Error(), "secretpw") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("unreachable Postgres: %v", err)
	}
}
