package skillrt

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/leaf/procgroup"
)

// ScriptOptions configure skills_run_script. The zero value is disabled.
type ScriptOptions struct {
	Enabled bool
	// Interpreters maps a file extension to the argv prefix that runs it
	// (default: .py python3, .sh bash, .js and .mjs node). The script path
	// is appended, then the arguments; nothing goes through a shell.
	Interpreters map[string][]string
	// Timeout bounds a run (default 60s); the process group is killed.
	Timeout time.Duration
	// OutputLimit caps stdout and stderr each (default 64 KiB).
	OutputLimit int
	// EnvAllow names the host variables passed through (default PATH,
	// LANG, LC_ALL, TZ); nothing else of the host environment is
	// inherited.
	EnvAllow []string
	// Approvals is the operator's record of the packages from untrusted
	// origins (the project root, MCP servers) whose scripts may run; nil
	// refuses every such package.
	Approvals *ScriptApprovals
	// Project is the directory whose .agents/skills is the project root,
	// named in the command a refusal suggests ("" leaves --project out).
	Project string
	// Sandbox is an argv prefix the interpreter command is run under (for
	// example a bubblewrap or container invocation ending in "--"); empty
	// runs it directly, which is for development hosts only.
	Sandbox []string
}

// DefaultInterpreters returns the default extension map.
func DefaultInterpreters() map[string][]string {
	return map[string][]string{".py": {"python3"}, ".sh": {"bash"}, ".js": {"node"}, ".mjs": {"node"}}
}

func (o ScriptOptions) interpreters() map[string][]string {
	if o.Interpreters != nil {
		return o.Interpreters
	}
	return DefaultInterpreters()
}

func (o ScriptOptions) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return 60 * time.Second
}

func (o ScriptOptions) outputLimit() int {
	if o.OutputLimit > 0 {
		return o.OutputLimit
	}
	return 64 << 10
}

func (o ScriptOptions) envAllow() []string {
	if o.EnvAllow != nil {
		return o.EnvAllow
	}
	return []string{"PATH", "LANG", "LC_ALL", "TZ"}
}

// RunScriptInput is the input of skills_run_script.
type RunScriptInput struct {
	Skill string            `json:"skill,omitempty" jsonschema:"loaded skill whose script to run; default: the most recently loaded"`
	Path  string            `json:"path" jsonschema:"script path relative to the skill root, e.g. scripts/extract.py"`
	Args  []string          `json:"args,omitempty" jsonschema:"arguments passed to the script as separate argv entries (no shell)"`
	Env   map[string]string `json:"env,omitempty" jsonschema:"extra environment variables for the script: only TZ, NO_COLOR and the names the package declares in its SKILL.md metadata env"`
}

// RunScriptOutput is the result of one script run.
type RunScriptOutput struct {
	Path       string `json:"path"`
	ExitCode   int    `json:"exit_code"`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	TimedOut   bool   `json:"timed_out"`
	DurationMS int64  `json:"duration_ms"`
	Truncated  bool   `json:"truncated"` // stdout or stderr hit the output limit
}

// RunScript runs skills_run_script: the script of an active package runs
// from a staged copy of the package (the bytes the digest covers, checked
// again while copying), with an argv built from the interpreter map, an
// environment built from allowlists (scriptEnv), a timeout and a process
// group that is killed as a whole. A package from the project root or an
// MCP server runs only once the operator approved its digest
// (scriptApproved).
func (rt *Runtime) RunScript(ctx context.Context, sessionID string, in RunScriptInput) (RunScriptOutput, error) {
	so := rt.opts.Scripts
	if !so.Enabled {
		return RunScriptOutput{}, fmt.Errorf("skills_run_script is disabled on this host")
	}
	rec, err := rt.activeRecord(sessionID, in.Skill)
	if err != nil {
		return RunScriptOutput{}, err
	}
	argv, rel, err := scriptArgv(rec, in.Path, so)
	if err != nil {
		return RunScriptOutput{}, err
	}
	if err := rt.scriptApproved(rec); err != nil {
		return RunScriptOutput{}, err
	}
	env, err := scriptEnv(so, rec, in.Env)
	if err != nil {
		return RunScriptOutput{}, err
	}
	stage, err := stagePackage(rec)
	if err != nil {
		return RunScriptOutput{}, err
	}
	defer os.RemoveAll(stage)
	argv = append(append(append([]string(nil), so.Sandbox...), argv...), in.Args...)
	out := execute(ctx, so, argv, append(env, "SKILL_ROOT="+stage), stage)
	out.Path = filepath.ToSlash(rel)
	return out, nil
}

// scriptArgv validates the script path and builds the argv.
func scriptArgv(rec *registry.Record, p string, so ScriptOptions) ([]string, string, error) {
	if rec.Kind != registry.KindPackage {
		return nil, "", fmt.Errorf("skill %q is a skillscript; run it with execute_skill", rec.Name)
	}
	rel, err := localPath(p)
	if err != nil {
		return nil, "", err
	}
	if !inManifest(rec, filepath.ToSlash(rel)) {
		return nil, "", fmt.Errorf("%s is not a file of skill %s (see the files listed by skills_load)", filepath.ToSlash(rel), rec.Name)
	}
	interp, ok := so.interpreters()[strings.ToLower(filepath.Ext(rel))]
	if !ok || len(interp) == 0 {
		return nil, "", fmt.Errorf("no interpreter for %q files; runnable extensions: %s", filepath.Ext(rel), strings.Join(sortedKeys(so.interpreters()), ", "))
	}
	return append(append([]string(nil), interp...), rel), rel, nil
}

func inManifest(rec *registry.Record, rel string) bool {
	for _, r := range rec.Resources {
		if r.Path == rel {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stagePackage copies the package files listed in the manifest into a
// fresh directory through an os.Root, checking each file's sha256, and
// returns the directory.
func stagePackage(rec *registry.Record) (string, error) {
	root, err := os.OpenRoot(rec.Root)
	if err != nil {
		return "", fmt.Errorf("cannot open the skill root: %v", err)
	}
	defer root.Close()
	stage, err := os.MkdirTemp("", "skillc-stage-")
	if err != nil {
		return "", err
	}
	for _, res := range rec.Resources {
		if err := stageFile(root, stage, res); err != nil {
			os.RemoveAll(stage)
			return "", err
		}
	}
	return stage, nil
}

// stageFile copies one manifest file and verifies its hash.
func stageFile(root *os.Root, stage string, res registry.Resource) error {
	src, err := root.Open(filepath.FromSlash(res.Path))
	if err != nil {
		return fmt.Errorf("cannot stage %s: %s", res.Path, rootError(err))
	}
	defer src.Close()
	dst := filepath.Join(stage, filepath.FromSlash(res.Path))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), src); err != nil {
		return err
	}
	if hex.EncodeToString(h.Sum(nil)) != res.SHA256 {
		return fmt.Errorf("%s changed since the skill was indexed; reload the skill before running its scripts", res.Path)
	}
	return nil
}

// capped is a writer that keeps the first limit bytes.
type capped struct {
	buf       bytes.Buffer
	limit     int
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.limit - c.buf.Len()
	if room < len(p) {
		c.truncated = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

// execute runs argv in dir and collects the result.
func execute(ctx context.Context, so ScriptOptions, argv, env []string, dir string) RunScriptOutput {
	ctx, cancel := context.WithTimeout(ctx, so.timeout())
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, append(env, "HOME="+dir)
	newProcessGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	stdout, stderr := &capped{limit: so.outputLimit()}, &capped{limit: so.outputLimit()}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		procgroup.Kill(cmd.Process.Pid, procgroup.DefaultWait) // background jobs the script left
	}
	out := RunScriptOutput{
		Stdout: stdout.buf.String(), Stderr: stderr.buf.String(),
		DurationMS: time.Since(start).Milliseconds(), Truncated: stdout.truncated || stderr.truncated,
		TimedOut: errors.Is(ctx.Err(), context.DeadlineExceeded),
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		out.ExitCode = exit.ExitCode()
	default:
		out.ExitCode = -1
		out.Stderr += fmt.Sprintf("\nskillc: cannot run %s: %v", argv[0], err)
	}
	return out
}
