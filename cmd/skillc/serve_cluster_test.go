package main

import (
	"database/sql"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// 28.cluster: two hosts on one Postgres with --skill-store share their
// skills and approvals: a skill written and approved through host A
// (skill_write, skill_status) is listed Approved by host B, runs there
// through execute_skill, and B's /event fires it — B's skill directory
// never holds the file.
func TestServeClusterSkillStore(t *testing.T) {
	url := pgtest.Start(t)
	env := []string{"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"}
	args := []string{"--database", url, "--skill-store", url}
	homeA, homeB := t.TempDir(), t.TempDir()
	a := startServe(t, homeA, env, args...)
	b := startServe(t, homeB, env, args...)
	ca, cb := connect(t, a.url, nil), connect(t, b.url, nil)

	src := "# Skill: greet\n# Status: Draft\n# Vars: WHO=\"cluster\"\n# Triggers: event: greet\n\nrun:\n    emit(text=\"Hello, ${WHO}!\")\ndefault: run\n"
	var w struct{ Name, Status string }
	callJSON(t, ca, "skill_write", map[string]any{"name": "greet", "source": src}, &w)
	if w.Name != "greet" || w.Status != "Draft" {
		t.Fatalf("skill_write on A = %+v", w)
	}
	callJSON(t, ca, "skill_status", map[string]any{"name": "greet", "status": "Approved"}, nil)

	var list struct {
		Skills []struct{ Name, Status string }
	}
	callJSON(t, cb, "skill_list", map[string]any{}, &list)
	found := false
	for _, s := range list.Skills {
		if s.Name == "greet" {
			found = true
			if s.Status != "Approved" {
				t.Errorf("host B lists greet as %q, want Approved (approved through A)", s.Status)
			}
		}
	}
	if !found {
		t.Errorf("host B's skill_list = %+v, want greet written through A", list.Skills)
	}
	var ex struct{ Status, Output string }
	callJSON(t, cb, "execute_skill", map[string]any{"name": "greet", "inputs": map[string]any{"WHO": "B"}}, &ex)
	if ex.Status != "ok" || ex.Output != "Hello, B!" {
		t.Errorf("execute_skill on host B of a skill written through A = %+v", ex)
	}
	if _, err := os.Stat(filepath.Join(homeB, "skills", "greet.skill.md")); !os.IsNotExist(err) {
		t.Errorf("host B's skill directory holds greet (%v): the skill must come from the shared store", err)
	}
	code, id, _ := postEvent(t, b.url, `{"event_name":"greet","params":{"WHO":"event"}}`, "")
	if code != http.StatusOK {
		t.Fatalf("POST /event greet on B = %d", code)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var status string
	waitUntil(t, 30*time.Second, func() bool {
		return db.QueryRow(`SELECT status FROM runs WHERE id = $1`, id).Scan(&status) == nil && status != trace.StatusRunning
	})
	if status != trace.StatusOK {
		t.Errorf("event fire of greet through B: %s, want ok", status)
	}
	if m := metricsText(t, b.url); !strings.Contains(m, "skillc_skill_store_shared 1") {
		t.Errorf("/metrics of host B lacks skillc_skill_store_shared 1")
	}
	// the operator's CLI reads the same store through the environment
	out, errOut, code := skillc(t, map[string]string{"SKILLSCRIPT_HOME": t.TempDir(), "SKILLSCRIPT_SKILL_STORE_URL": url}, "list")
	if code != 0 || !strings.Contains(out, "greet") {
		t.Errorf("skillc list with SKILLSCRIPT_SKILL_STORE_URL: exit %d\n%s%s\nwant greet listed", code, out, errOut)
	}
	if _, errOut, code := skillc(t, map[string]string{"SKILLSCRIPT_HOME": t.TempDir()}, "serve", "--skills", t.TempDir(), "--skill-store", url); code == 0 || !strings.Contains(errOut, "--skill-store and --skills") {
		t.Errorf("serve with both --skills and --skill-store: exit %d, %s; want a usage error naming both", code, errOut)
	}
}

// metricsText returns the host's /metrics page.
func metricsText(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
