package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDashboardCommandReadsTraces runs `skillc run` on a stored skill
// (which records a trace under SKILLSCRIPT_HOME), then a standalone
// `skillc dashboard` process, and reads the catalog, the fires list and
// the run's timeline from it over HTTP. A home without a trace database
// gets none created.
func TestDashboardCommandReadsTraces(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "hello", "# Skill: hello\n# Status: Draft\n\nrun:\n    emit(text=\"hi there\")\ndefault: run\n")
	env := append(os.Environ(), "SKILLSCRIPT_HOME="+home)

	empty := t.TempDir()
	url, stop := startDashboard(t, append(os.Environ(), "SKILLSCRIPT_HOME="+empty))
	if body := get(t, url+"/fires"); !strings.Contains(body, "no trace store") {
		t.Errorf("fires without traces:\n%s", body)
	}
	stop()
	if m, _ := filepath.Glob(filepath.Join(empty, "*", "traces.db")); len(m) > 0 {
		t.Errorf("the dashboard created a trace database: %v", m)
	}

	run := exec.Command("skillc", "run", filepath.Join(home, "skills", "hello.skill.md"))
	run.Env = env
	if out, err := run.CombinedOutput(); err != nil || !strings.Contains(string(out), "hi there") {
		t.Fatalf("skillc run: %v\n%s", err, out)
	}
	url, stop = startDashboard(t, env)
	defer stop()
	if body := get(t, url+"/skills"); !strings.Contains(body, `href="/skills/hello"`) || !strings.Contains(body, `class="o-ok">ok`) {
		t.Fatalf("catalog lacks the skill or its last fire:\n%s", body)
	}
	fires := get(t, url+"/fires")
	m := regexp.MustCompile(`href="(/fires/[0-9a-f]+)"`).FindStringSubmatch(fires)
	if m == nil {
		t.Fatalf("fires list has no trace link:\n%s", fires)
	}
	if body := get(t, url+m[1]); !strings.Contains(body, `<table id="timeline">`) || !strings.Contains(body, "<code>emit</code>") {
		t.Errorf("trace page:\n%s", body)
	}
}

func startDashboard(t *testing.T, env []string) (string, func()) {
	t.Helper()
	cmd := exec.Command("skillc", "dashboard", "--port", "0")
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "skillc dashboard: "); ok {
				urlc <- strings.TrimSuffix(u, "/")
			}
		}
	}()
	select {
	case u := <-urlc:
		return u, stop
	case <-time.After(20 * time.Second):
		stop()
		t.Fatal("skillc dashboard did not start")
	}
	return "", nil
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d\n%s", url, resp.StatusCode, b)
	}
	return string(b)
}
