package trigger

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
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

// startPostgres runs a throwaway PostgreSQL on loopback in a temp dir
// (initdb + pg_ctl) and returns its URL. Without the binaries the test is
// skipped loudly, or fails under CI=true (.ci/run installs them).
func startPostgres(t *testing.T) string {
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
	cred := pgCredential(t, dir)
	port := freePort(t)
	data := filepath.Join(dir, "data")
	run := func(bin string, args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", filepath.Base(bin), args, err, out)
		}
	}
	run(initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", port, dir)
	run(pgctl, "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "start")
	t.Cleanup(func() {
		cmd := exec.Command(pgctl, "-D", data, "-m", "immediate", "stop")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		_ = cmd.Run()
	})
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// pgCredential returns the user the server runs as: PostgreSQL refuses
// root, so as root it is the postgres account, owning dir.
func pgCredential(t *testing.T, dir string) *syscall.Credential {
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

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Two hosts on one Postgres: one cron due, exactly one fire runs.
func TestPostgresTwoHostsOneFire(t *testing.T) {
	url := startPostgres(t)
	fx := newFixture(t)
	fx.skill("daily", cronSkill)
	var mu sync.Mutex
	ran := 0
	open := func() *Service {
		svc, err := Open(context.Background(), Options{
			Queue:  QueueOptions{URL: url, FetchPollInterval: 20 * time.Millisecond},
			Skills: fx.store, Clock: fx.clock, PollInterval: time.Hour,
			Run: func(context.Context, Fire) error {
				mu.Lock()
				ran++
				mu.Unlock()
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	a, b := open(), open()
	ctx := context.Background()
	for _, s := range []*Service{a, b} {
		if err := s.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer s.Stop(ctx)
	}
	if a.Durability() != "durable (postgres queue)" {
		t.Errorf("durability = %q", a.Durability())
	}
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i, s := range []*Service{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := s.Tick(ctx, day(5, 9, 0))
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	if counts[0]+counts[1] != 1 {
		t.Errorf("jobs inserted %v, want 1 in total", counts)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := ran
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // room for a wrong second run
	mu.Lock()
	defer mu.Unlock()
	if ran != 1 {
		t.Errorf("fires run = %d, want exactly 1", ran)
	}
}
