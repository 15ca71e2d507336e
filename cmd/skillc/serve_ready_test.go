package main

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// readiness is one /readyz answer.
type readiness struct {
	code   int
	Ready  bool              `json:"ready"`
	Checks map[string]string `json:"checks"`
}

func readyz(t testing.TB, url string) readiness {
	t.Helper()
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url + "/readyz")
	if err != nil {
		t.Fatalf("GET /readyz: %v", err)
	}
	defer resp.Body.Close()
	r := readiness{code: resp.StatusCode}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("/readyz body: %v", err)
	}
	return r
}

// waitReady polls /readyz until its code is want and returns that answer.
func waitReady(t testing.TB, url string, want int, within time.Duration) readiness {
	t.Helper()
	var r readiness
	waitUntil(t, within, func() bool {
		r = readyz(t, url)
		return r.code == want
	})
	return r
}

// 28.obs: /readyz follows the Postgres the host's queue and traces live
// in: ready, the server stopped (immediate shutdown) → 503 naming the
// queue and the traces, the server started again → ready, and an event
// posted after the outage runs.
func TestServeReadyzPostgresOutage(t *testing.T) {
	pg := pgtest.StartServer(t)
	home := t.TempDir()
	writeSkill(t, home, "quick", "# Skill: quick\n# Status: Approved\n# Triggers: event: quick\n\nrun:\n    emit(text=\"done\")\ndefault: run\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"}, "--database", pg.URL, "--host-timeout", "1s")
	if r := waitReady(t, p.url, http.StatusOK, 20*time.Second); r.Checks["queue"] != "ok" || r.Checks["traces"] != "ok" {
		t.Fatalf("/readyz before the outage: %+v", r)
	}
	pg.Stop()
	r := waitReady(t, p.url, http.StatusServiceUnavailable, 30*time.Second)
	if r.Ready || r.Checks["queue"] == "ok" || r.Checks["traces"] == "ok" {
		t.Errorf("/readyz with Postgres stopped: %+v, want the queue and the traces failing", r)
	}
	pg.Restart()
	if r := waitReady(t, p.url, http.StatusOK, 60*time.Second); !r.Ready || r.Checks["queue"] != "ok" || r.Checks["traces"] != "ok" {
		t.Errorf("/readyz after Postgres came back: %+v", r)
	}
	code, id, _ := postEvent(t, p.url, `{"event_name":"quick"}`, "")
	if code != http.StatusOK {
		t.Fatalf("POST /event after the outage = %d", code)
	}
	db, err := sql.Open("pgx", pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	waitUntil(t, 60*time.Second, func() bool {
		var status string
		return db.QueryRow(`SELECT status FROM runs WHERE id = $1`, id).Scan(&status) == nil && status == trace.StatusOK
	})
}

// 28.obs: /readyz follows the SQLite queue: another process holding the
// queue file's write lock makes the host's heartbeat fail (the file is
// unavailable to it) and /readyz 503 naming the queue; once the lock is
// released the host is ready again and runs an event.
func TestServeReadyzSQLiteLocked(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "quick", "# Skill: quick\n# Status: Approved\n# Triggers: event: quick\n\nrun:\n    emit(text=\"done\")\ndefault: run\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"}, "--host-timeout", "1s")
	if r := waitReady(t, p.url, http.StatusOK, 20*time.Second); r.Checks["queue"] != "ok" {
		t.Fatalf("/readyz before the lock: %+v", r)
	}
	queue := openDB(t, filepath.Join(home, "queue.db"))
	conn, err := queue.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	r := waitReady(t, p.url, http.StatusServiceUnavailable, 60*time.Second)
	if r.Ready || r.Checks["queue"] == "ok" {
		t.Errorf("/readyz with the queue file locked: %+v, want the queue failing", r)
	}
	if _, err := conn.ExecContext(t.Context(), `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	if r := waitReady(t, p.url, http.StatusOK, 60*time.Second); r.Checks["queue"] != "ok" {
		t.Errorf("/readyz after the lock was released: %+v", r)
	}
	code, id, _ := postEvent(t, p.url, `{"event_name":"quick"}`, "")
	if code != http.StatusOK {
		t.Fatalf("POST /event after the lock = %d", code)
	}
	traces := openDB(t, filepath.Join(home, "traces", trace.FileName))
	if rs := finalRun(t, traces, id, 30*time.Second); rs[0].Status != trace.StatusOK {
		t.Errorf("event after the lock: %+v", rs)
	}
}
