package shellexec

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestDefaultDenyRefusesBeforeAnythingRuns(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	resolved := 0
	r := &Runner{Resolve: func(s string) (string, error) { resolved++; return s, nil }}
	for _, req := range []Request{
		{Command: "touch " + marker},
		{Argv: []string{"touch", marker}},
		{Command: "touch " + marker, Unsafe: true},
	} {
		_, err := r.Run(context.Background(), req)
		if !IsRefusal(err) {
			t.Errorf("Run(%+v) err = %v, want a refusal", req, err)
		}
	}
	if resolved != 0 {
		t.Errorf("Resolve called %d times for refused ops", resolved)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Error("a refused command ran")
	}
}

func TestRefusalMessages(t *testing.T) {
	r := &Runner{Allowlist: []string{"echo"}}
	_, err := r.Run(context.Background(), Request{Command: "cat /etc/passwd"})
	if err == nil || err.Error() != `shell binary "cat" is not on the shell allowlist` {
		t.Errorf("err = %v", err)
	}
	_, err = r.Run(context.Background(), Request{Command: "echo hi | cat", Unsafe: true})
	var unsafe *UnsafeShellDisabledError
	if !errors.As(err, &unsafe) {
		t.Errorf("unsafe disabled err = %v", err)
	}
	r.EnableUnsafe = true
	_, err = r.Run(context.Background(), Request{Command: "echo hi", Unsafe: true})
	var na *BinaryNotAllowedError
	if !errors.As(err, &na) || na.Binary != "bash" {
		t.Errorf("unsafe without bash allowlisted err = %v", err)
	}
}

func TestAllowlistMatching(t *testing.T) {
	echoPath, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo on PATH")
	}
	byName := &Runner{Allowlist: []string{"echo"}}
	byPath := &Runner{Allowlist: []string{echoPath}}
	cases := []struct {
		r    *Runner
		bin  string
		want bool
	}{
		{byName, "echo", true},
		{byName, echoPath, false},
		{byName, "/tmp/evil/echo", false},
		{byName, "./echo", false},
		{byName, "ech", false},
		{byPath, echoPath, true},
		{byPath, "echo", true},
		{byPath, filepath.Dir(echoPath) + "/../" + filepath.Base(filepath.Dir(echoPath)) + "/echo", true},
		{byPath, "/tmp/evil/echo", false},
		{&Runner{}, "echo", false},
	}
	for _, c := range cases {
		if got := c.r.Allowed(c.bin); got != c.want {
			t.Errorf("Allowed(%q) with %q = %v, want %v", c.bin, c.r.Allowlist, got, c.want)
		}
	}
}

func TestRunStructural(t *testing.T) {
	r := &Runner{Allowlist: []string{"echo", "printf"}}
	res, err := r.Run(context.Background(), Request{Command: "echo 'hello   world' again"})
	if err != nil || res.Stdout != "hello   world again\n" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	// No shell: metacharacters are plain arguments.
	res, err = r.Run(context.Background(), Request{Command: "echo $(id) ; ls > /tmp/x"})
	if err != nil || res.Stdout != "$(id) ; ls > /tmp/x\n" {
		t.Fatalf("metacharacters = %q, %v", res.Stdout, err)
	}
}

func TestRunArgvKeepsArguments(t *testing.T) {
	r := &Runner{Allowlist: []string{"printf"}}
	text := `Jamie's "turn" $(x) {"k": 1}`
	res, err := r.Run(context.Background(), Request{Argv: []string{"printf", "%s|", text, "two words"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := text + "|two words|"; res.Stdout != want {
		t.Errorf("stdout = %q, want %q", res.Stdout, want)
	}
}

func TestRunRequestErrors(t *testing.T) {
	r := &Runner{Allowlist: []string{"echo"}, EnableUnsafe: true}
	for _, req := range []Request{
		{Argv: []string{"echo"}, Command: "echo"},
		{Argv: []string{"echo"}, Unsafe: true},
		{Argv: []string{""}},
		{},
	} {
		_, err := r.Run(context.Background(), req)
		var re *RequestError
		if !errors.As(err, &re) {
			t.Errorf("Run(%+v) err = %v, want RequestError", req, err)
		}
	}
}

func TestRunExitError(t *testing.T) {
	r := &Runner{
		Allowlist:    []string{"bash"},
		EnableUnsafe: true,
		Redact:       func(s string) string { return strings.ReplaceAll(s, "hunter2", "{{secret.PW}}") },
	}
	res, err := r.Run(context.Background(), Request{Command: "echo partial; echo 'bad password hunter2' >&2; exit 3", Unsafe: true})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 3 {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(res.Stderr, "hunter2") {
		t.Errorf("secret leaked: %q / %q", err, res.Stderr)
	}
	if want := "shell: bash exited with status 3: bad password {{secret.PW}}"; err.Error() != want {
		t.Errorf("message = %q, want %q", err.Error(), want)
	}
	if res.Stdout != "partial\n" {
		t.Errorf("stdout = %q", res.Stdout)
	}
}

func TestRunMissingBinary(t *testing.T) {
	r := &Runner{Allowlist: []string{"no-such-binary-skillc"}}
	_, err := r.Run(context.Background(), Request{Command: "no-such-binary-skillc --x"})
	if err == nil || IsRefusal(err) || !strings.Contains(err.Error(), "cannot run no-such-binary-skillc") {
		t.Errorf("err = %v", err)
	}
}

func TestRunResolveAfterGate(t *testing.T) {
	var seen []string
	r := &Runner{
		Allowlist: []string{"echo"},
		Resolve: func(s string) (string, error) {
			seen = append(seen, s)
			return strings.ReplaceAll(s, "{{secret.K}}", "s3cr3t value"), nil
		},
	}
	res, err := r.Run(context.Background(), Request{Command: "echo key={{secret.K}}"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "key=s3cr3t value\n" {
		t.Errorf("stdout = %q", res.Stdout)
	}
	if !slices.Equal(res.Argv, []string{"echo", "key={{secret.K}}"}) {
		t.Errorf("Result.Argv must keep the marker form: %q", res.Argv)
	}
	if !slices.Equal(seen, []string{"echo", "key={{secret.K}}"}) {
		t.Errorf("Resolve saw %q", seen)
	}
	boom := errors.New("secret K is not declared")
	r.Resolve = func(string) (string, error) { return "", boom }
	if _, err := r.Run(context.Background(), Request{Command: "echo x"}); !errors.Is(err, boom) {
		t.Errorf("resolve error = %v", err)
	}
}

func TestChildEnvDropsSecrets(t *testing.T) {
	r := &Runner{Allowlist: []string{"env"}, Env: []string{"FOO=bar", "SKILLSCRIPT_SECRET_TOKEN=abc123", "PATH=" + os.Getenv("PATH")}}
	res, err := r.Run(context.Background(), Request{Command: "env"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Stdout, "FOO=bar") || strings.Contains(res.Stdout, "abc123") {
		t.Errorf("env = %q", res.Stdout)
	}
	t.Setenv("SKILLSCRIPT_SECRET_INHERITED", "xyz789")
	r.Env = nil
	res, err = r.Run(context.Background(), Request{Command: "env"})
	if err != nil || strings.Contains(res.Stdout, "xyz789") {
		t.Errorf("inherited secret reached the child: %v", err)
	}
}

func TestRunUnsafe(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	r := &Runner{Allowlist: []string{"bash"}, EnableUnsafe: true}
	res, err := r.Run(context.Background(), Request{Command: "for i in $(seq 1 3); do echo $i; done | tr '\\n' ,", Unsafe: true})
	if err != nil || res.Stdout != "1,2,3," {
		t.Fatalf("unsafe = %q, %v", res.Stdout, err)
	}
	if !slices.Equal(res.Argv[:2], []string{"bash", "-c"}) {
		t.Errorf("argv = %q", res.Argv)
	}
}

func TestRunTimeoutKillsProcessGroup(t *testing.T) {
	r := &Runner{Allowlist: []string{"bash"}, EnableUnsafe: true}
	res, err := r.Run(context.Background(), Request{
		Command: "sleep 30 & echo $!; wait",
		Unsafe:  true,
		Timeout: 300 * time.Millisecond,
	})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Timeout != 300*time.Millisecond {
		t.Fatalf("err = %v", err)
	}
	if err.Error() != "shell: bash timed out after 300ms" {
		t.Errorf("message = %q", err)
	}
	waitGone(t, res.Stdout)
}

func TestRunKillsBackgroundJobsAfterExit(t *testing.T) {
	r := &Runner{Allowlist: []string{"bash"}, EnableUnsafe: true}
	res, err := r.Run(context.Background(), Request{Command: "sleep 30 >/dev/null 2>&1 & echo $!", Unsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	waitGone(t, res.Stdout)
}

// waitGone waits (bounded) until the process whose pid is in text is gone.
func waitGone(t *testing.T, text string) {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil {
		t.Fatalf("no pid in %q", text)
	}
	for range 200 {
		if !alive(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("grandchild %d outlived the op", pid)
}

// alive reports whether pid is a live (non-zombie) process.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func TestRunContextCancel(t *testing.T) {
	r := &Runner{Allowlist: []string{"sleep"}}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err := r.Run(ctx, Request{Command: "sleep 30", Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		t.Error("a cancelled parent context is not the op's own timeout")
	}
}

func TestRunOutputLimit(t *testing.T) {
	r := &Runner{Allowlist: []string{"yes"}, MaxOutput: 1000}
	res, err := r.Run(context.Background(), Request{Command: "yes"})
	var le *OutputLimitError
	if !errors.As(err, &le) || le.Limit != 1000 {
		t.Fatalf("err = %v", err)
	}
	if len(res.Stdout) != 1000 {
		t.Errorf("kept %d bytes", len(res.Stdout))
	}
}

func TestRunDir(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{Allowlist: []string{"pwd"}, Dir: dir}
	res, err := r.Run(context.Background(), Request{Command: "pwd"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if got := strings.TrimSpace(res.Stdout); got != dir && got != want {
		t.Errorf("pwd = %q, want %q", got, dir)
	}
}
