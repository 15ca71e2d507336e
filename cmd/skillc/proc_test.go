//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// procCmds are testscript commands for the child-process tests (issue 13
// item 6). They act on real processes named by pid files the skills write.
//
//	waitfile FILE             wait (bounded) until FILE exists
//	signalpid SIGNAL FILE     send SIGNAL (TERM, HUP, INT) to the pid on FILE's first line
//	gone FILE                 every pid listed in FILE is dead (or a zombie), after a bounded wait
//	groupgone FILE            right now, with no wait: no live process is in the group of any pid listed in FILE
func procCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
			for range 1000 {
				if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
			ts.Fatalf("%s never appeared", args[0])
		},
		"signalpid": func(ts *testscript.TestScript, neg bool, args []string) {
			sig := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP, "INT": syscall.SIGINT}[args[0]]
			pids := readPids(ts, args[1])
			if sig == 0 || len(pids) == 0 {
				ts.Fatalf("usage: signalpid TERM|HUP|INT FILE (with a pid in it)")
			}
			ts.Check(syscall.Kill(pids[0], sig))
		},
		"groupgone": func(ts *testscript.TestScript, neg bool, args []string) {
			pids := readPids(ts, args[0])
			if len(pids) == 0 {
				ts.Fatalf("no pids in %s", args[0])
			}
			for _, p := range pids {
				if alive := groupMembers(p); len(alive) > 0 {
					for _, a := range alive {
						_ = syscall.Kill(a, syscall.SIGKILL)
					}
					ts.Fatalf("processes of group %d alive after skillc exited: %v", p, alive)
				}
			}
		},
		"gone": func(ts *testscript.TestScript, neg bool, args []string) {
			pids := readPids(ts, args[0])
			if len(pids) == 0 {
				ts.Fatalf("no pids in %s", args[0])
			}
			var alive []int
			for range 250 {
				alive = alive[:0]
				for _, p := range pids {
					if processAlive(p) {
						alive = append(alive, p)
					}
				}
				if len(alive) == 0 {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
			for _, p := range alive {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			ts.Fatalf("processes survived: %v (of %v)", alive, pids)
		},
	}
}

func readPids(ts *testscript.TestScript, file string) []int {
	data, err := os.ReadFile(ts.MkAbs(file))
	ts.Check(err)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if n, err := strconv.Atoi(f); err == nil && n > 1 {
			pids = append(pids, n)
		}
	}
	return pids
}

// processAlive reports whether pid is a live, non-zombie process.
func processAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}
