// Package pgtest starts a throwaway PostgreSQL server for tests: initdb
// and pg_ctl on loopback in a temporary directory. Tests that need it are
// skipped loudly when the server binaries are absent, and fail under
// CI=true (.ci/run installs the Debian postgresql package).
package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// pgBin finds a PostgreSQL server binary on PATH or in Debian's layout.
func pgBin(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name); len(m) > 0 {
		return m[len(m)-1]
	}
	return ""
}

// Start runs a throwaway PostgreSQL on loopback in a temp dir
// (initdb + pg_ctl) and returns its URL. Without the binaries the test is
// skipped loudly, or fails under CI=true (.ci/run installs them).
func Start(t testing.TB) string {
	t.Helper()
	return StartServer(t).URL
}

// Server is a throwaway PostgreSQL a test can stop and start again on
// the same port and data, to see how its clients live through an outage.
type Server struct {
	// URL is the server's connection URL.
	URL   string
	t     testing.TB
	pgctl string
	data  string
	opts  string
	log   string
	cred  *syscall.Credential
}

// StartServer is Start returning the server, so that the test can Stop
// and Restart it.
func StartServer(t testing.TB) *Server {
	t.Helper()
	initdb, pgctl := pgBin("initdb"), pgBin("pg_ctl")
	if initdb == "" || pgctl == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("PostgreSQL (initdb, pg_ctl) is not installed; .ci/run installs the Debian postgresql package")
		}
		t.Skip("SKIPPED: PostgreSQL (initdb, pg_ctl) not found; install the Debian postgresql package to run the two-host Postgres test")
	}
	dir, err := os.MkdirTemp("", "skillc-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	port := freePort(t)
	s := &Server{t: t, pgctl: pgctl, data: filepath.Join(dir, "data"), log: filepath.Join(dir, "log"), cred: pgCredential(t, dir),
		opts: fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", port, dir),
		URL:  fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)}
	s.run(initdb, "-D", s.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	s.Restart()
	t.Cleanup(func() {
		cmd := exec.Command(pgctl, "-D", s.data, "-m", "immediate", "stop")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
		_ = cmd.Run()
	})
	return s
}

func (s *Server) run(bin string, args ...string) {
	s.t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("%s %v: %v\n%s", filepath.Base(bin), args, err, out)
	}
}

// Stop shuts the server down at once (pg_ctl stop -m immediate): open
// connections break, new ones are refused.
func (s *Server) Stop() {
	s.t.Helper()
	s.run(s.pgctl, "-D", s.data, "-m", "immediate", "-w", "stop")
}

// Restart starts the (stopped) server again on its port and data and
// waits until it accepts connections.
func (s *Server) Restart() {
	s.t.Helper()
	s.run(s.pgctl, "-D", s.data, "-o", s.opts, "-l", s.log, "-w", "start")
}

// pgCredential returns the user the server runs as: PostgreSQL refuses
// root, so as root it is the postgres account, owning dir.
func pgCredential(t testing.TB, dir string) *syscall.Credential {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		t.Skip("SKIPPED: running as root and there is no postgres account to run the server")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
