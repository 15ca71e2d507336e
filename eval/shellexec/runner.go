package shellexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/internal/leaf/shellwords"
)

// Default limits; a zero field in Runner selects them.
const (
	DefaultMaxOutput = 16 << 20 // bytes of stdout
	maxStderr        = 64 << 10 // bytes of stderr kept for messages
	waitDelay        = 250 * time.Millisecond
)

// Runner executes shell ops. Its zero value refuses everything (empty
// allowlist, unsafe disabled). A Runner is safe for concurrent use.
type Runner struct {
	// Allowlist holds the binaries that may run: bare names or absolute
	// paths. Empty means deny all.
	Allowlist []string
	// EnableUnsafe allows shell(..., unsafe=true), which also needs bash on
	// the allowlist.
	EnableUnsafe bool
	// Resolve, if set, is applied to every argv token (and to the unsafe
	// script) after the gates pass, before the process starts; the secret
	// resolver plugs in here.
	Resolve func(string) (string, error)
	// Redact, if set, is applied to stderr and to every error message.
	Redact func(string) string
	// Env is the child's environment; nil means this process's environment.
	// SKILLSCRIPT_SECRET_* entries are always removed.
	Env []string
	// Dir is the child's working directory; empty means the current one.
	Dir string
	// MaxOutput bounds stdout in bytes; 0 means DefaultMaxOutput.
	MaxOutput int
	// Bash names the shell for unsafe runs; empty means "bash".
	Bash string
}

// Request is one shell op. Exactly one of Command and Argv is set; Unsafe
// only goes with Command.
type Request struct {
	Command string
	Argv    []string
	Unsafe  bool
	Timeout time.Duration // 0 means no timeout of its own
}

// Result is a finished run.
type Result struct {
	Argv     []string // the argv as checked, before Resolve (safe to log)
	Stdout   string
	Stderr   string // redacted
	Duration time.Duration
}

// Check applies the gates to req without running anything and returns the
// argv that would run (before Resolve). Refusals are
// *UnsafeShellDisabledError and *BinaryNotAllowedError; a malformed request
// is *RequestError or *shellwords.SyntaxError.
func (r *Runner) Check(req Request) ([]string, error) {
	argv, err := r.argv(req)
	if err != nil {
		return nil, err
	}
	if req.Unsafe && !r.EnableUnsafe {
		return nil, &UnsafeShellDisabledError{}
	}
	if req.Unsafe {
		if !r.Allowed(argv[0]) {
			return nil, &BinaryNotAllowedError{Binary: argv[0]}
		}
		return argv, nil
	}
	// The structural forms are classified through wrappers (env, nice,
	// timeout, sudo, xargs, ...): every program of the chain must be on
	// the allowlist, and a command interpreter given code (bash -c,
	// python -c) is a full shell, which only unsafe=true may run.
	class := lang.ClassifyShell(argv)
	for _, bin := range class.Chain {
		if !r.Allowed(bin) {
			return nil, &BinaryNotAllowedError{Binary: bin}
		}
	}
	if class.FullShell {
		return nil, &FullShellError{Argv: argv, Why: class.Mutating}
	}
	return argv, nil
}

// argv builds the argv of a request in marker form.
func (r *Runner) argv(req Request) ([]string, error) {
	switch {
	case len(req.Argv) > 0 && (req.Command != "" || req.Unsafe):
		return nil, &RequestError{Msg: "argv= cannot be combined with command= or unsafe=true"}
	case len(req.Argv) > 0:
		if req.Argv[0] == "" {
			return nil, &RequestError{Msg: "argv[0] is empty"}
		}
		return append([]string(nil), req.Argv...), nil
	case strings.TrimSpace(req.Command) == "":
		return nil, &RequestError{Msg: "command is empty"}
	case req.Unsafe:
		return []string{r.bash(), "-c", req.Command}, nil
	}
	return shellwords.Tokenize(req.Command)
}

func (r *Runner) bash() string {
	if r.Bash != "" {
		return r.Bash
	}
	return "bash"
}

// Allowed reports whether binary passes the allowlist (see the package doc
// for how bare names and absolute paths match).
func (r *Runner) Allowed(binary string) bool {
	for _, e := range r.Allowlist {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
		case !filepath.IsAbs(e):
			if binary == e && !strings.ContainsRune(binary, '/') {
				return true
			}
		case filepath.IsAbs(binary):
			if filepath.Clean(binary) == filepath.Clean(e) {
				return true
			}
		case !strings.ContainsRune(binary, '/'):
			if p, err := exec.LookPath(binary); err == nil && filepath.Clean(p) == filepath.Clean(e) {
				return true
			}
		}
	}
	return false
}

// Run checks req, resolves its tokens, runs it and returns its stdout.
// A non-zero exit is *ExitError, an expired Request.Timeout *TimeoutError;
// when ctx ends the error wraps ctx.Err().
func (r *Runner) Run(ctx context.Context, req Request) (*Result, error) {
	argv, err := r.Check(req)
	if err != nil {
		return nil, err
	}
	resolved, err := r.resolve(argv)
	if err != nil {
		return nil, err
	}
	runCtx := ctx
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	res := &Result{Argv: argv}
	err = r.exec(runCtx, resolved, res)
	return r.finish(ctx, runCtx, req, res, err)
}

func (r *Runner) resolve(argv []string) ([]string, error) {
	if r.Resolve == nil {
		return argv, nil
	}
	out := make([]string, len(argv))
	for i, a := range argv {
		v, err := r.Resolve(a)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// exec starts the process in its own process group and waits for it.
func (r *Runner) exec(ctx context.Context, argv []string, res *Result) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = childEnv(r.Env)
	cmd.Dir = r.Dir
	limit := r.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	stdout := &cappedBuffer{limit: limit}
	stderr := &cappedBuffer{limit: maxStderr, truncate: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = waitDelay
	setProcessGroup(cmd)
	start := time.Now()
	err := cmd.Start()
	if err == nil {
		err = cmd.Wait()
		killProcessGroup(cmd)
	}
	res.Duration = time.Since(start)
	res.Stdout, res.Stderr = stdout.String(), r.redact(strings.TrimSpace(stderr.String()))
	switch {
	case stdout.overflow && ctx.Err() == nil:
		return &OutputLimitError{Binary: res.Argv[0], Limit: limit}
	case errors.Is(err, exec.ErrWaitDelay):
		return nil // exited cleanly; a background job held the pipes open
	}
	return err
}

// finish turns the raw exec error into the package's error types.
func (r *Runner) finish(ctx, runCtx context.Context, req Request, res *Result, err error) (*Result, error) {
	bin := res.Argv[0]
	var exitErr *exec.ExitError
	var limitErr *OutputLimitError
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return res, fmt.Errorf("shell: %s: %w", bin, ctx.Err())
	case runCtx.Err() != nil:
		return res, &TimeoutError{Binary: bin, Timeout: req.Timeout}
	case errors.As(err, &limitErr):
		return res, err
	case errors.As(err, &exitErr):
		return res, &ExitError{Binary: bin, Code: exitErr.ExitCode(), Stderr: res.Stderr}
	}
	return res, fmt.Errorf("shell: cannot run %s: %s", bin, r.redact(err.Error()))
}

func (r *Runner) redact(s string) string {
	if r.Redact == nil {
		return s
	}
	return r.Redact(s)
}

// childEnv returns env (or this process's environment) without the
// SKILLSCRIPT_SECRET_* variables.
func childEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, "SKILLSCRIPT_SECRET_") {
			out = append(out, kv)
		}
	}
	return out
}

// errOverflow stops the copy from a process that writes too much.
var errOverflow = errors.New("output limit reached")

// cappedBuffer keeps at most limit bytes. With truncate it drops the rest
// quietly; otherwise it records the overflow and fails the write, which
// closes the pipe on the writer.
type cappedBuffer struct {
	buf      bytes.Buffer
	limit    int
	truncate bool
	overflow bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.limit - b.buf.Len()
	if len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		if b.truncate {
			return len(p), nil
		}
		b.overflow = true
		return 0, errOverflow
	}
	return b.buf.Write(p)
}

func (b *cappedBuffer) String() string { return b.buf.String() }
