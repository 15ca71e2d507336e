//go:build linux

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// teardownServer is an MCP server over stdio (newline JSON-RPC) that
// starts a grandchild in its process group and records its own pid and
// the grandchild's in $PIDS. The grandchild holds a 64 MiB heap, so the
// kernel needs a noticeable time (tens of milliseconds) to tear it down after
// SIGKILL, like a big server on a busy machine. At the end of its input
// the server exits at once and leaves the grandchild behind, so only the
// group kill ends it.
const teardownServer = `import json, os, subprocess, sys
child = subprocess.Popen([sys.executable, "-S", "-c", "import sys, time\nb = bytearray(b'x') * (64 << 20)\nprint('ready', flush=True)\ntime.sleep(300)"], stdout=subprocess.PIPE)
child.stdout.readline()
with open(os.environ["PIDS"], "a") as f:
    f.write("%d\n%d\n" % (os.getpid(), child.pid))
for line in sys.stdin:
    req = json.loads(line)
    if "id" not in req:
        continue
    m = req.get("method")
    if m == "initialize":
        res = {"protocolVersion": req["params"].get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}}, "serverInfo": {"name": "t", "version": "1"}}
    elif m == "tools/list":
        res = {"tools": [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]}
    elif m == "tools/call":
        res = {"content": [{"type": "text", "text": req["params"]["arguments"].get("text", "")}]}
    else:
        res = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": res}) + "\n")
    sys.stdout.flush()
`

// TestMCPTeardownUnderLoad runs the real skillc binary 20 times in a row,
// with every core kept busy, on a skill calling a server started through
// a wrapper (sh -c) that starts a grandchild (issue 22 item 12, round-1
// F7). Right after each skillc exits — no grace period — no process of the
// server's process group may be alive: teardown kills the group and waits
// for it before skillc exits.
func TestMCPTeardownUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("20 runs of skillc under load")
	}
	for _, bin := range []string{"python3", "sh", "sleep"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s not installed", bin)
		}
	}
	// the interpreter itself, not a version-manager shim, started without
	// site packages: the runs take less long
	py, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writePackage(t, dir, map[string]string{
		"srv.py":        teardownServer,
		"conns.json":    `{ "srv": { "class": "RemoteMcpConnector", "config": { "command": "sh", "args": ["-c", "echo $$ >> \"$PIDS\"; \"$PY\" -S \"$DIR/srv.py\"; true"], "framing": "newline" } } }`,
		"echo.skill.md": "# Skill: echo_it\n# Status: Approved\nt:\n    $ srv.echo text=\"hi\" -> R\n    emit(text=\"echo: ${R}\")\ndefault: t\n",
	})

	// load: a busy loop per core for as long as the runs last
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				_ = n * n
			}
		}()
	}
	defer func() { stop(); wg.Wait() }()

	for i := range 20 {
		pids := filepath.Join(dir, "run"+strconv.Itoa(i)+".pids")
		cmd := exec.Command("skillc", "run", "--no-check", "--connectors", "conns.json", "echo.skill.md")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PIDS="+pids, "DIR="+dir, "PY="+strings.TrimSpace(string(py)), "SKILLSCRIPT_HOME="+filepath.Join(dir, "home"), "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "echo: hi") {
			t.Fatalf("run %d: %v\n%s", i, err, out)
		}
		recorded := readPidFile(t, pids)
		// each start of the server records three pids: the wrapper (the
		// group leader), the server and the grandchild
		if len(recorded) == 0 || len(recorded)%3 != 0 {
			t.Fatalf("run %d: want the wrapper, server and grandchild pids of each start, got %v", i, recorded)
		}
		for _, pgid := range recorded {
			if alive := groupMembers(pgid); len(alive) > 0 {
				t.Errorf("run %d: processes of the server's group %d alive after skillc exited: %v (recorded %v)", i, pgid, alive, recorded)
			}
		}
		for _, p := range recorded {
			if processAlive(p) {
				t.Errorf("run %d: process %d alive after skillc exited", i, p)
			}
		}
		if t.Failed() {
			for _, p := range recorded {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			return
		}
	}
}

func readPidFile(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if n, err := strconv.Atoi(f); err == nil && n > 1 {
			pids = append(pids, n)
		}
	}
	return pids
}

// groupMembers lists the live (non-zombie) processes of group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			out = append(out, pid)
		}
	}
	return out
}
