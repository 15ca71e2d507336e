//go:build linux

package procgroup

import (
	"bytes"
	"os"
	"strconv"
)

// Alive reports whether a process of group pgid is still running.
// kill(-pgid, 0) also finds zombies, which are dead but wait for a parent
// (often an init that reaps slowly) to collect them, so the members are
// looked up in /proc, leaving out zombies and dead processes.
func Alive(pgid int) bool {
	if !exists(pgid) {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	want := []byte(strconv.Itoa(pgid))
	for _, e := range entries {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and ')'
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) >= 3 && bytes.Equal(f[2], want) && f[0][0] != 'Z' && f[0][0] != 'X' {
			return true
		}
	}
	return false
}
