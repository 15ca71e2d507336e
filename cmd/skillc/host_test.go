package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/urfave/cli/v2"
)

// TestToolchainLeavesTheHostOut keeps skillc, the binary users run for
// check, run, fmt and the language server, free of the libraries only
// the runtime host needs (decision BS1): their package init ran at every
// start-up. skillc-host links them.
func TestToolchainLeavesTheHostOut(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	banned := []string{"github.com/prometheus/", "google.golang.org/grpc", "go.opentelemetry.io/", "github.com/riverqueue/",
		"google.golang.org/protobuf", "github.com/skillscript/skillc/internal/host/serve", "github.com/skillscript/skillc/internal/host/trigger",
		"github.com/skillscript/skillc/internal/host/telemetry", "github.com/skillscript/skillc/internal/host/dashboard",
		"github.com/skillscript/skillc/internal/hostcli"}
	list := func(pkg string) []string {
		out, err := exec.Command(gobin, "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	for _, dep := range list("github.com/skillscript/skillc/cmd/skillc") {
		for _, b := range banned {
			if strings.HasPrefix(dep, b) {
				t.Errorf("cmd/skillc links %s", dep)
			}
		}
	}
	// the same list finds them in skillc-host: the check above looks for
	// the right names
	host := strings.Join(list("github.com/skillscript/skillc/cmd/skillc-host"), "\n")
	for _, want := range []string{"github.com/prometheus/client_golang/prometheus", "github.com/riverqueue/river", "go.opentelemetry.io/otel", "github.com/skillscript/skillc/internal/hostcli"} {
		if !strings.Contains(host, want+"\n") {
			t.Errorf("cmd/skillc-host does not link %s", want)
		}
	}
}

// hostBins builds skillc and skillc-host into one directory.
func hostBins(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, pkg := range []string{".", "../skillc-host"} {
		if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return dir
}

func exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// runBin runs bin with args and env (over a PATH of pathDirs only) and
// returns its stdout, stderr and exit status.
func runBin(t *testing.T, bin string, pathDirs []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PATH="+strings.Join(pathDirs, string(os.PathListSeparator)), "SKILLSCRIPT_HOME="+t.TempDir(), "NO_COLOR=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return out.String(), errb.String(), code
}

// TestHostShim runs the real binaries, built once into one directory.
func TestHostShim(t *testing.T) {
	dir := hostBins(t)
	t.Run("RunsSkillcHost", func(t *testing.T) { shimRunsSkillcHost(t, dir) })
	t.Run("FindsSkillcHostOnPath", func(t *testing.T) { shimFindsSkillcHostOnPath(t, dir) })
	t.Run("WithoutSkillcHost", func(t *testing.T) { shimWithoutSkillcHost(t, dir) })
	t.Run("ServeSignals", func(t *testing.T) { shimServeSignals(t, dir) })
	t.Run("ChildProcess", func(t *testing.T) { shimChildProcess(t, dir) })
}

// shimChildProcess is the shim's path where the process cannot be
// replaced (other platforms, or streams that are not the process's):
// skillc-host runs as a child on the caller's streams, named skillc, and
// its exit status is the shim's. skillc-host is found on PATH (the test
// binary has none beside it).
func shimChildProcess(t *testing.T, dir string) {
	t.Setenv("PATH", dir)
	var out, errb strings.Builder
	s := &streams{in: strings.NewReader(""), out: &out, err: &errb}
	if err := runHost(s, []string{"serve", "--help"}); err != nil || !strings.Contains(out.String(), "skillc serve - ") {
		t.Errorf("serve --help as a child: %v\n%s%s", err, out.String(), errb.String())
	}
	out.Reset()
	t.Setenv("SKILLSCRIPT_HOME", t.TempDir())
	err := runHost(s, []string{"serve", "--workers", "0", "--stdio"})
	var ec cli.ExitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != exitUsage || !strings.Contains(errb.String(), "skillc: --workers 0: want at least 1") {
		t.Errorf("a usage error as a child: %v, stderr %q; want exit status %d passed through", err, errb.String(), exitUsage)
	}
}

// shimRunsSkillcHost: skillc serve and skillc dashboard are run by
// skillc-host (help, a usage error and its exit status, as they read
// before the split), and skillc-host runs them directly too.
func shimRunsSkillcHost(t *testing.T, dir string) {
	skillcBin, hostBin := filepath.Join(dir, exe("skillc")), filepath.Join(dir, exe("skillc-host"))

	out, errs, code := runBin(t, skillcBin, nil, "serve", "--help")
	if code != 0 || !strings.Contains(out, "skillc serve - "+skillcli.HostUsage("serve")) || !strings.Contains(out, "--otel-endpoint") {
		t.Errorf("skillc serve --help: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runBin(t, skillcBin, nil, "help", "dashboard")
	if code != 0 || !strings.Contains(out, "skillc dashboard - ") || !strings.Contains(out, "--allowed-origins") {
		t.Errorf("skillc help dashboard: exit %d\n%s%s", code, out, errs)
	}
	// a usage error: skillc-host's message, named skillc, and its status
	_, errs, code = runBin(t, skillcBin, nil, "serve", "--workers", "0", "--stdio")
	if code != exitUsage || !strings.Contains(errs, "skillc: --workers 0: want at least 1") {
		t.Errorf("skillc serve --workers 0: exit %d, stderr %q; want %d and skillc-host's message", code, errs, exitUsage)
	}
	// skillc --help still lists the moved commands
	out, _, _ = runBin(t, skillcBin, nil, "--help")
	for _, c := range skillcli.HostCommands {
		if !strings.Contains(out, "   "+c.Name+" ") {
			t.Errorf("skillc --help does not list %s:\n%s", c.Name, out)
		}
	}
	// skillc-host on its own
	out, errs, code = runBin(t, hostBin, nil, "--version")
	if code != 0 || !strings.HasPrefix(out, "skillc-host ") {
		t.Errorf("skillc-host --version: exit %d, %q %q", code, out, errs)
	}
	out, errs, code = runBin(t, hostBin, nil, "serve", "--help")
	if code != 0 || !strings.Contains(out, "skillc-host serve - ") {
		t.Errorf("skillc-host serve --help: exit %d\n%s%s", code, out, errs)
	}
	_, errs, code = runBin(t, hostBin, nil, "check", "x.skill.md")
	if code != exitUsage || !strings.Contains(errs, `unknown command "check" for "skillc-host"`) {
		t.Errorf("skillc-host check: exit %d, %q", code, errs)
	}
}

// shimFindsSkillcHostOnPath: with skillc alone in its directory, the
// shim takes skillc-host from PATH.
func shimFindsSkillcHostOnPath(t *testing.T, dir string) {
	alone := t.TempDir()
	copyFile(t, filepath.Join(dir, exe("skillc")), filepath.Join(alone, exe("skillc")))
	out, errs, code := runBin(t, filepath.Join(alone, exe("skillc")), []string{dir}, "serve", "--help")
	if code != 0 || !strings.Contains(out, "--otel-endpoint") {
		t.Errorf("skillc serve --help with skillc-host on PATH: exit %d\n%s%s", code, out, errs)
	}
}

// shimWithoutSkillcHost: neither beside skillc nor on PATH, the moved
// commands fail with a status of 2 and a message naming the binary and
// how to install it; the toolchain's commands are unaffected.
func shimWithoutSkillcHost(t *testing.T, dir string) {
	alone := t.TempDir()
	bin := filepath.Join(alone, exe("skillc"))
	copyFile(t, filepath.Join(dir, exe("skillc")), bin)
	for _, args := range [][]string{{"serve", "--port", "0"}, {"dashboard"}, {"serve", "--help"}} {
		out, errs, code := runBin(t, bin, []string{t.TempDir()}, args...)
		if code != exitUsage || out != "" {
			t.Errorf("skillc %v without skillc-host: exit %d, stdout %q; want %d and nothing", args, code, out, exitUsage)
		}
		for _, want := range []string{"skillc-host", "not found beside skillc (" + filepath.Join(alone, exe("skillc-host")) + ") or on PATH",
			"go install github.com/skillscript/skillc/cmd/skillc-host@", "release archive"} {
			if !strings.Contains(errs, want) {
				t.Errorf("skillc %v without skillc-host: stderr %q does not say %q", args, errs, want)
			}
		}
	}
	if out, errs, code := runBin(t, bin, nil, "--version"); code != 0 || !strings.HasPrefix(out, "skillc ") {
		t.Errorf("skillc --version without skillc-host: exit %d %q %q", code, out, errs)
	}
}

// shimServeSignals starts a real skillc serve through the shim: the
// listening process is skillc-host in place of skillc (the same process,
// so SIGTERM reaches the host), and its clean exit after the signal is
// the shim's exit status.
func shimServeSignals(t *testing.T, dir string) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGTERM and exec in place are unix")
	}
	cmd := exec.Command(filepath.Join(dir, "skillc"), "serve", "--port", "0", "--trace", "off")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "HOME="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	var log strings.Builder
	listening := make(chan bool, 1)
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "skillc serve: listening on http://") {
				listening <- true
			}
		}
		done <- cmd.Wait()
	}()
	select {
	case <-listening:
	case err := <-done:
		t.Fatalf("skillc serve exited early: %v\n%s", err, log.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("skillc serve did not start:\n%s", log.String())
	}
	exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "exe"))
	if err == nil && filepath.Base(exe) != "skillc-host" {
		t.Errorf("the serving process %d runs %s, want skillc-host in place of skillc", cmd.Process.Pid, exe)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("skillc serve after SIGTERM: %v\n%s", err, log.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("skillc serve did not exit after SIGTERM:\n%s", log.String())
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
