//go:build linux

package procgroup

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestKillWaitsForTheGroup starts a group whose leader has exited and
// whose remaining member holds a large heap (slow to tear down after
// SIGKILL): when Kill returns, no member is alive, without any grace
// period in the test.
func TestKillWaitsForTheGroup(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	for i := range 3 {
		// sh starts the heavy child in the background and exits; the child
		// prints its pid once its heap is touched
		cmd := exec.Command("sh", "-c", `"$0" -S -c 'import os, time
b = bytearray(b"x") * (64 << 20)
print(os.getpid(), flush=True)
time.sleep(300)' &
exit 0`, py)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		child, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		pgid := cmd.Process.Pid
		if !Alive(pgid) {
			t.Fatalf("run %d: group %d has no live member before the kill", i, pgid)
		}
		if !Kill(pgid, DefaultWait) {
			t.Fatalf("run %d: Kill gave up on group %d", i, pgid)
		}
		if Alive(pgid) {
			t.Errorf("run %d: group %d still has a live member after Kill", i, pgid)
		}
		if syscall.Kill(child, 0) == nil && !zombieOrGone(child) {
			t.Errorf("run %d: child %d alive after Kill", i, child)
		}
	}
	if !Kill(1<<22-3, DefaultWait) {
		t.Error("Kill of an empty group did not return at once")
	}
}

func zombieOrGone(pid int) bool {
	cmd := exec.Command("sh", "-c", "cat /proc/"+strconv.Itoa(pid)+"/stat")
	b, err := cmd.Output()
	if err != nil {
		return true
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}
