package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// The fault tests of the runtime host's queue (issue 22): real `skillc
// serve` processes, real HTTP posts, kill -9, real SQLite files and a
// real Postgres.

// openDB opens one of a host's SQLite files (queue.db, traces.db) beside
// the running host (WAL, busy timeout).
func openDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// runRow is a trace row as the fault tests read it.
type runRow struct {
	ID, Status, Errors, AbortReason string
}

// runsOf returns the trace rows of run id: the first attempt's (id) and
// the retries' (id-N), in id order.
func runsOf(t testing.TB, db *sql.DB, id string) []runRow {
	t.Helper()
	rows, err := db.Query(`SELECT id, status, errors, abort_reason FROM runs WHERE id = ? OR id LIKE ? ORDER BY id`, id, id+"-%")
	if err != nil {
		return nil // the host may still be creating the file
	}
	return scanRunRows(t, rows)
}

// pgRunsOf is runsOf on a Postgres trace store.
func pgRunsOf(t testing.TB, db *sql.DB, id string) []runRow {
	t.Helper()
	rows, err := db.Query(`SELECT id, status, errors, abort_reason FROM runs WHERE id = $1 OR id LIKE $2 ORDER BY id`, id, id+"-%")
	if err != nil {
		t.Fatal(err)
	}
	return scanRunRows(t, rows)
}

// scanRunRows reads and closes rows of (id, status, errors, abort_reason).
func scanRunRows(t testing.TB, rows *sql.Rows) []runRow {
	t.Helper()
	defer rows.Close()
	var out []runRow
	for rows.Next() {
		var r runRow
		if err := rows.Scan(&r.ID, &r.Status, &r.Errors, &r.AbortReason); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// finalRun waits until run id has a finished trace row and returns its
// rows.
func finalRun(t testing.TB, db *sql.DB, id string, within time.Duration) []runRow {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		rs := runsOf(t, db, id)
		if len(rs) > 0 && rs[len(rs)-1].Status != trace.StatusRunning {
			return rs
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s has no finished trace row after %s: %+v", id, within, rs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitUntil polls cond every 20ms until it holds, failing the test after
// within.
func waitUntil(t testing.TB, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not reached within %s", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// postEvent posts an event, with an Idempotency-Key when key is set, and
// returns the status, the run id and the response's headers.
func postEvent(t testing.TB, url, body, key string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/event", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", nil
	}
	defer resp.Body.Close()
	var out struct {
		RunID string `json:"run_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out.RunID, resp.Header
}

// 22.3: a fire's job timeout is its skill's, not River's default. With a
// default job timeout of 1s, a skill declaring # Timeout: 5 runs its
// 3-second sleep to the end, fired by an event and by cron; the same
// sleep in a skill that declares no bound is cut at the 1s default (the
// knob is live).
func TestServeJobTimeoutIsTheSkills(t *testing.T) {
	home := t.TempDir()
	bounded := "# Skill: %s\n# Status: Approved\n# Timeout: 5\n# Triggers: %s\n\nrun:\n    shell(command=\"sleep 3\") -> R\n    emit(text=\"slept\")\ndefault: run\n"
	writeSkill(t, home, "evslow", fmt.Sprintf(bounded, "evslow", "event: evslow"))
	writeSkill(t, home, "cronslow", fmt.Sprintf(bounded, "cronslow", "cron: 0 0 1 1 *"))
	writeSkill(t, home, "unbounded", "# Skill: unbounded\n# Status: Approved\n# Triggers: event: unbounded\n\nrun:\n    shell(command=\"sleep 3\") -> R\n    emit(text=\"slept\")\ndefault: run\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_SHELL_ALLOWLIST=sleep", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"},
		"--job-timeout", "1s", "--max-job-timeout", "1m", "--poll-interval", "100ms")
	traces := openDB(t, filepath.Join(home, "traces", trace.FileName))
	// make the yearly cron trigger due now
	queue := openDB(t, filepath.Join(home, "queue.db"))
	waitUntil(t, 30*time.Second, func() bool {
		res, err := queue.Exec(`UPDATE skillc_triggers SET next_fire = ? WHERE skill = 'cronslow'`, time.Now().Add(-time.Second).UnixMilli())
		n, _ := res.RowsAffected()
		return err == nil && n == 1
	})
	code, ev, _ := postEvent(t, p.url, `{"event_name":"evslow"}`, "")
	code2, un, _ := postEvent(t, p.url, `{"event_name":"unbounded"}`, "")
	if code != 200 || code2 != 200 {
		t.Fatalf("POST /event = %d, %d", code, code2)
	}
	if rs := finalRun(t, traces, ev, 30*time.Second); rs[0].Status != trace.StatusOK {
		t.Errorf("event fire of a # Timeout: 5 skill under a 1s default job timeout: %+v, want ok", rs)
	}
	if rs := finalRun(t, traces, un, 30*time.Second); rs[0].Status == trace.StatusOK {
		t.Errorf("a skill without a bound ran its 3s sleep under a 1s default job timeout: %+v, want cut", rs)
	}
	var cronID string
	waitUntil(t, 30*time.Second, func() bool {
		return traces.QueryRow(`SELECT id FROM runs WHERE skill = 'cronslow' AND status != 'running' ORDER BY started_at LIMIT 1`).Scan(&cronID) == nil
	})
	if rs := runsOf(t, traces, cronID); len(rs) != 1 || rs[0].Status != trace.StatusOK {
		t.Errorf("cron fire of a # Timeout: 5 skill under a 1s default job timeout: %+v, want one ok run", rs)
	}
	// 22.f: a run's log line names its trace, its skill and the host
	if err := p.stop(t); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(p.stderr.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "run finished" {
			continue
		}
		id, _ := rec["trace_id"].(string)
		host, _ := rec["host"].(string)
		if id == "" || rec["skill"] == "" || !strings.HasSuffix(host, ":"+home) {
			t.Errorf("run log line without trace_id, skill or host: %s", line)
		}
		seen[id] = true
	}
	if !seen[ev] || !seen[un] || !seen[cronID] {
		t.Errorf("run log lines name %v, want %s, %s and %s", seen, ev, un, cronID)
	}
}

// 28.3: the long job, once, at full length: a # Timeout: 300
// skill sleeping 61 s — past River's 60 s default job timeout that used
// to cut every triggered run — under a host default job timeout of 60 s,
// fired by an event and by cron at once, finishes ok both times. It is
// the slowest test of the package (~62 s of sleep, no CPU) and runs in
// parallel with the others; TestServeJobTimeoutIsTheSkills proves the
// same rule in seconds with shorter bounds.
func TestServeLongJobBeyondRiverDefault(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	long := "# Skill: %s\n# Status: Approved\n# Timeout: 300\n# Triggers: %s\n\nrun:\n    shell(command=\"sleep 61\") -> R\n    emit(text=\"slept\")\ndefault: run\n"
	writeSkill(t, home, "evlong", fmt.Sprintf(long, "evlong", "event: evlong"))
	writeSkill(t, home, "cronlong", fmt.Sprintf(long, "cronlong", "cron: 0 0 1 1 *"))
	p := startServe(t, home, []string{"SKILLSCRIPT_SHELL_ALLOWLIST=sleep", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"},
		"--job-timeout", "60s", "--max-job-timeout", "10m", "--poll-interval", "100ms")
	queue := openDB(t, filepath.Join(home, "queue.db"))
	waitUntil(t, 30*time.Second, func() bool {
		res, err := queue.Exec(`UPDATE skillc_triggers SET next_fire = ? WHERE skill = 'cronlong'`, time.Now().Add(-time.Second).UnixMilli())
		n, _ := res.RowsAffected()
		return err == nil && n == 1
	})
	code, ev, _ := postEvent(t, p.url, `{"event_name":"evlong"}`, "")
	if code != 200 {
		t.Fatalf("POST /event = %d", code)
	}
	traces := openDB(t, filepath.Join(home, "traces", trace.FileName))
	if rs := finalRun(t, traces, ev, 3*time.Minute); len(rs) != 1 || rs[0].Status != trace.StatusOK {
		t.Errorf("event fire of a # Timeout: 300 skill sleeping 61 s: %+v, want one ok run", rs)
	}
	var cronID string
	waitUntil(t, 3*time.Minute, func() bool {
		return traces.QueryRow(`SELECT id FROM runs WHERE skill = 'cronlong' AND status != 'running' ORDER BY started_at LIMIT 1`).Scan(&cronID) == nil
	})
	if rs := runsOf(t, traces, cronID); len(rs) != 1 || rs[0].Status != trace.StatusOK {
		t.Errorf("cron fire of a # Timeout: 300 skill sleeping 61 s: %+v, want one ok run", rs)
	}
}

// markSkill appends one uniquely named file per run under dir (a
// countable effect), then sleeps so that a kill can land after the
// effect and before the run's final trace row.
func markSkill(dir string, sleep string) string {
	return "# Skill: mark\n# Status: Approved\n# Autonomous: true\n# Triggers: event: mark\n# Vars: KEY\n\nrun:\n" +
		"    shell(argv=[\"mktemp\", \"-p\", \"" + dir + "\", \"${KEY}.XXXXXX\"]) -> F\n" +
		"    shell(command=\"sleep " + sleep + "\") -> S\n    emit(text=\"marked\")\ndefault: run\n"
}

// marks counts the effect files of key.
func marks(t testing.TB, dir, key string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, key+".*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

func sleepersOf(arg string) int {
	n := 0
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.HasPrefix(string(b), "sleep\x00"+arg) {
			n++
		}
	}
	return n
}

// 22.1/22.2/22.c: kill -9 while an effectful fire is mid-run (its effect
// done, its final trace row not written, its job not completed). The
// restarted host rescues the job at once (not after River's hour) and
// looks before it runs: the run began and never finished and the skill
// performs effects, so it is not run again — its row is aborted with a
// reason naming why, and health counts it. A skill the operator declares
// idempotent (--idempotent-skills) is run again instead.
func TestServeKill9MidRunNotRerun(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		wantMarks  int
		wantStatus []string
	}{
		{"effectful", nil, 1, []string{trace.StatusAborted}},
		{"idempotent", []string{"--idempotent-skills", "mark"}, 2, []string{trace.StatusAborted, trace.StatusOK}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			dir := t.TempDir()
			sleep := "41.5"
			if tc.name == "idempotent" {
				sleep = "41.75"
			}
			writeSkill(t, home, "mark", markSkill(dir, sleep))
			env := []string{"SKILLSCRIPT_SHELL_ALLOWLIST=mktemp,sleep", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_RATE=0"}
			args := append([]string{"--job-timeout", "1m", "--max-job-timeout", "2m", "--rescue-after", "3m"}, tc.args...)
			p := startServe(t, home, env, args...)
			code, id, _ := postEvent(t, p.url, `{"event_name":"mark","params":{"KEY":"k1"}}`, "")
			if code != 200 {
				t.Fatalf("POST /event = %d", code)
			}
			waitUntil(t, 30*time.Second, func() bool { return sleepersOf(sleep) > 0 })
			_ = p.cmd.Process.Kill()
			<-p.done
			if tc.name == "idempotent" {
				// the second run sleeps again; make it short
				writeSkill(t, home, "mark", markSkill(dir, "0.1"))
			}
			p2 := startServe(t, home, env, args...)
			traces := openDB(t, filepath.Join(home, "traces", trace.FileName))
			var rs []runRow
			waitUntil(t, 30*time.Second, func() bool {
				rs = runsOf(t, traces, id)
				return len(rs) == len(tc.wantStatus) && rs[len(rs)-1].Status != trace.StatusRunning
			})
			for i, want := range tc.wantStatus {
				if rs[i].Status != want {
					t.Errorf("attempt %d of %s: %+v, want %s", i+1, id, rs[i], want)
				}
			}
			if tc.name == "effectful" && !strings.Contains(rs[0].AbortReason, "not re-run") {
				t.Errorf("abort reason %q does not say why the fire was not re-run", rs[0].AbortReason)
			}
			queue := openDB(t, filepath.Join(home, "queue.db"))
			waitUntil(t, 30*time.Second, func() bool {
				var state string
				return queue.QueryRow(`SELECT state FROM river_job`).Scan(&state) == nil && state == "completed"
			})
			if n := marks(t, dir, "k1"); n != tc.wantMarks {
				t.Errorf("effects of %s = %d, want %d", id, n, tc.wantMarks)
			}
			if tc.name == "effectful" {
				cs := connect(t, p2.url, nil)
				var health struct {
					Skills []struct {
						Skill   string
						Aborted int
					}
				}
				callJSON(t, cs, "health_metrics", map[string]any{"skill": "mark"}, &health)
				if len(health.Skills) != 1 || health.Skills[0].Aborted != 1 {
					t.Errorf("health_metrics of mark = %+v, want 1 aborted", health.Skills)
				}
			}
		})
	}
}

// 22.1/22.c: a run that finished ok and did its effect, whose job's
// completion was never written (the host was killed between the two),
// is not run again when the job is rescued: the retried job finds the
// finished trace row and completes. The lost completion is reproduced by
// putting the completed job back to running under the killed host's
// River client id, as the database holds it after such a kill.
func TestServeKill9LostCompletionNotRerun(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	writeSkill(t, home, "mark", markSkill(dir, "0"))
	env := []string{"SKILLSCRIPT_SHELL_ALLOWLIST=mktemp,sleep", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_RATE=0"}
	p := startServe(t, home, env)
	code, id, _ := postEvent(t, p.url, `{"event_name":"mark","params":{"KEY":"k1"}}`, "")
	if code != 200 {
		t.Fatalf("POST /event = %d", code)
	}
	traces := openDB(t, filepath.Join(home, "traces", trace.FileName))
	queue := openDB(t, filepath.Join(home, "queue.db"))
	if rs := finalRun(t, traces, id, 20*time.Second); rs[0].Status != trace.StatusOK {
		t.Fatalf("first run: %+v", rs)
	}
	waitUntil(t, 30*time.Second, func() bool {
		var state string
		return queue.QueryRow(`SELECT state FROM river_job`).Scan(&state) == nil && state == "completed"
	})
	_ = p.cmd.Process.Kill()
	<-p.done
	if _, err := queue.Exec(`UPDATE river_job SET state = 'running', finalized_at = NULL`); err != nil {
		t.Fatal(err)
	}
	p2 := startServe(t, home, env)
	_ = p2
	waitUntil(t, 30*time.Second, func() bool {
		var state string
		var attempt int
		return queue.QueryRow(`SELECT state, attempt FROM river_job`).Scan(&state, &attempt) == nil && state == "completed" && attempt == 2
	})
	if n := marks(t, dir, "k1"); n != 1 {
		t.Errorf("effects of %s after the rescued job = %d, want 1", id, n)
	}
	if rs := runsOf(t, traces, id); len(rs) != 1 || rs[0].Status != trace.StatusOK {
		t.Errorf("trace rows of %s = %+v, want the one ok row", id, rs)
	}
}

// faultFigures are what a load-and-kill run ended with.
type faultFigures struct {
	accepted, once, twice, abortedNoEffect, abortedAfterEffect, lost int
	recover                                                          time.Duration
}

func (f faultFigures) String() string {
	return fmt.Sprintf("accepted %d, ran once %d, ran twice %d, aborted before its effect %d, aborted after its effect %d, lost %d, recovered in %s",
		f.accepted, f.once, f.twice, f.abortedNoEffect, f.abortedAfterEffect, f.lost, f.recover.Round(10*time.Millisecond))
}

// loadAndKill posts n events, each marking a file of its own key, to the
// hosts round-robin, kill -9s hosts[0] once a quarter of them ran, calls
// after (which restarts it, or not), then waits until every accepted
// run_id has a finished trace row and checks the outcome: no run ran
// twice, none is lost, an ok run did its effect once, a run that was cut
// by the kill is aborted (not re-run: the skill performs effects) with at
// most its one effect, and each run has one trace row.
func loadAndKill(t *testing.T, hosts []*serveProc, n int, dir string, rows func(id string) []runRow, after func()) faultFigures {
	t.Helper()
	type acc struct{ key, id string }
	accepted := make(chan acc, n)
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	postersDone := make(chan struct{})
	var dead atomicBool
	go func() {
		defer close(postersDone)
		var wg sync.WaitGroup
		for w := 0; w < 6; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					h := hosts[i%len(hosts)]
					if i%len(hosts) == 0 && dead.get() {
						h = hosts[(i+1)%len(hosts)] // the killed host refuses connections
					}
					key := fmt.Sprintf("k%03d", i)
					if code, id, _ := postEvent(t, h.url, `{"event_name":"mark","params":{"KEY":"`+key+`"}}`, ""); code == 200 {
						accepted <- acc{key, id}
					}
				}
			}()
		}
		wg.Wait()
		close(accepted)
	}()
	waitUntil(t, 60*time.Second, func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, "k*"))
		return len(m) >= n/4
	})
	_ = hosts[0].cmd.Process.Kill()
	<-hosts[0].done
	dead.set(len(hosts) > 1)
	start := time.Now()
	after()
	<-postersDone
	var all []acc
	for a := range accepted {
		all = append(all, a)
	}
	fig := faultFigures{accepted: len(all)}
	deadline := time.Now().Add(90 * time.Second)
	pending := all
	for len(pending) > 0 && time.Now().Before(deadline) {
		var still []acc
		for _, a := range pending {
			rs := rows(a.id)
			if len(rs) == 0 || rs[len(rs)-1].Status == trace.StatusRunning {
				still = append(still, a)
			}
		}
		pending = still
		if len(pending) > 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
	fig.recover = time.Since(start)
	fig.lost = len(pending)
	for _, a := range all {
		rs, m := rows(a.id), marks(t, dir, a.key)
		switch {
		case m >= 2:
			fig.twice++
		case len(rs) == 0:
		case rs[0].Status == trace.StatusAborted && m == 0:
			fig.abortedNoEffect++
		case rs[0].Status == trace.StatusAborted:
			fig.abortedAfterEffect++
		case m == 1:
			fig.once++
		}
		if len(rs) > 1 {
			t.Errorf("run %s has %d trace rows, want 1: %+v", a.id, len(rs), rs)
		}
		if len(rs) == 1 && rs[0].Status == trace.StatusOK && m != 1 {
			t.Errorf("run %s finished ok with %d effects, want 1", a.id, m)
		}
		if len(rs) == 1 && rs[0].Status != trace.StatusOK && rs[0].Status != trace.StatusAborted {
			t.Errorf("run %s ended %s: %+v", a.id, rs[0].Status, rs[0])
		}
	}
	if fig.twice > 0 || fig.lost > 0 {
		t.Errorf("kill -9 under load: %s", fig)
	}
	if fig.accepted == 0 {
		t.Errorf("none of %d events accepted", n)
	}
	return fig
}

// atomicBool is a bool shared by the posters and the test.
type atomicBool struct {
	mu sync.Mutex
	v  bool
}

func (b *atomicBool) get() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.v }
func (b *atomicBool) set(v bool) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}

// 22.1/22.2: kill -9 of a SQLite host under a load of 200 events (1,000
// under SKILLC_FAULTS_FULL=1), then a
// restart: every accepted run_id ends with one finished trace row, no
// effect twice, none lost; the restarted host rescues its predecessor's
// jobs at once.
func TestServeFaultKill9LoadSQLite(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	writeSkill(t, home, "mark", markSkill(dir, "0.05"))
	env := []string{"SKILLSCRIPT_SHELL_ALLOWLIST=mktemp,sleep", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_RATE=0"}
	args := []string{"--job-timeout", "10s", "--max-job-timeout", "10s", "--rescue-after", "30s"}
	hosts := []*serveProc{startServe(t, home, env, args...)}
	traces := openDB(t, filepath.Join(home, "traces", trace.FileName))
	fig := loadAndKill(t, hosts, faultScale(200, 1000), dir, func(id string) []runRow { return runsOf(t, traces, id) }, func() {
		startServe(t, home, env, args...)
	})
	t.Logf("sqlite, 1 host, kill -9 and restart: %s", fig)
}

// 22.1/22.2/22.4: three Postgres hosts started at the same instant on an
// empty database (all come up: the migrations take an advisory lock), a
// load of 150 events (1,000 under SKILLC_FAULTS_FULL=1) spread over them, kill -9 of one host that is not
// restarted: the others see its heartbeat stop and rescue its jobs within
// seconds; every accepted run_id ends with one finished trace row, no
// effect twice, none lost.
func TestServeFaultKill9LoadPostgres(t *testing.T) {
	url := pgtest.Start(t)
	dir := t.TempDir()
	env := []string{"SKILLSCRIPT_SHELL_ALLOWLIST=mktemp,sleep", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_RATE=0"}
	args := []string{"--database", url, "--job-timeout", "10s", "--max-job-timeout", "10s", "--rescue-after", "30s", "--host-timeout", "3s"}
	hosts := make([]*serveProc, 3)
	var wg sync.WaitGroup
	for i := range hosts {
		home := t.TempDir()
		writeSkill(t, home, "mark", markSkill(dir, "0.05"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			hosts[i] = startServe(t, home, env, args...)
		}()
	}
	wg.Wait()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows := func(id string) []runRow { return pgRunsOf(t, db, id) }
	fig := loadAndKill(t, hosts, faultScale(150, 1000), dir, rows, func() {})
	t.Logf("postgres, 3 hosts, kill -9 of one, not restarted: %s", fig)
}

// 22.5: /event answers 429 with Retry-After while the queue holds
// --max-queue-depth unfinished fires, and a repeated Idempotency-Key gets
// the first post's run_id without a second job; the knobs are in /metrics.
func TestServeEventBackpressureAndIdempotencyKey(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "slow", "# Skill: slow\n# Status: Approved\n# Triggers: event: slow\n\nrun:\n    shell(command=\"sleep 43.5\") -> R\ndefault: run\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_SHELL_ALLOWLIST=sleep", "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_QUEUE_MAX_DEPTH=2"},
		"--workers", "1", "--grace", "100ms")
	defer p.stop(t)
	body := `{"event_name":"slow"}`
	code, first, _ := postEvent(t, p.url, body, "order-17")
	code2, again, hdr := postEvent(t, p.url, body, "order-17")
	if code != 200 || code2 != 200 || first == "" || again != first || hdr.Get("Idempotent-Replayed") != "true" {
		t.Errorf("same Idempotency-Key twice: %d %s, then %d %s (replayed %q); want the same run_id", code, first, code2, again, hdr.Get("Idempotent-Replayed"))
	}
	if code, other, _ := postEvent(t, p.url, body, "order-18"); code != 200 || other == first {
		t.Errorf("another key: %d %s, want a new run", code, other)
	}
	code, _, hdr = postEvent(t, p.url, body, "")
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" {
		t.Errorf("third unfinished fire with a depth limit of 2: %d (Retry-After %q), want 429 with Retry-After", code, hdr.Get("Retry-After"))
	}
	var jobs int
	queue := openDB(t, filepath.Join(home, "queue.db"))
	if err := queue.QueryRow(`SELECT count(*) FROM river_job`).Scan(&jobs); err != nil || jobs != 2 {
		t.Errorf("jobs queued = %d (%v), want 2 (one per key, none for the refused post)", jobs, err)
	}
	resp, err := http.Get(p.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, _ = io.Copy(&b, resp.Body)
	for _, want := range []string{"skillc_event_idempotent_replays_total 1", "skillc_queue_max_depth 2", "skillc_queue_workers 1",
		"skillc_queue_depth 2", `skillc_event_requests_total{code="429"} 1`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// 22.c: on Postgres a fire's job completes in the transaction that writes
// its run's final trace row. Each of 20 runs is watched with one
// statement (one snapshot) reading the row and the job together: no
// snapshot ever shows the run finished and its job still running, the
// window in which a kill -9 used to leave a finished run to be retried.
func TestServePostgresJobCompletesWithTraceRow(t *testing.T) {
	url := pgtest.Start(t)
	home := t.TempDir()
	writeSkill(t, home, "quick", "# Skill: quick\n# Status: Approved\n# Triggers: event: quick\n\nrun:\n    emit(text=\"done\")\ndefault: run\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"}, "--database", url)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 20
	type seen struct{ finishedRunning, finishedCompleted int }
	results := make(chan seen, n)
	for range n {
		code, id, _ := postEvent(t, p.url, `{"event_name":"quick"}`, "")
		if code != 200 {
			t.Fatalf("POST /event = %d", code)
		}
		go func() {
			var s seen
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) {
				var status, state string
				err := db.QueryRow(`SELECT r.status, j.state FROM runs r JOIN river_job j ON j.args->>'trace_id' = r.id WHERE r.id = $1`, id).Scan(&status, &state)
				if err == nil && status != trace.StatusRunning {
					if state == "completed" {
						s.finishedCompleted++
						break
					}
					s.finishedRunning++
				}
				time.Sleep(time.Millisecond)
			}
			results <- s
		}()
	}
	var bad, good int
	for range n {
		s := <-results
		bad += s.finishedRunning
		good += s.finishedCompleted
	}
	if bad > 0 || good != n {
		t.Errorf("snapshots with the run finished but its job still running: %d; runs seen completed: %d of %d", bad, good, n)
	}
}
