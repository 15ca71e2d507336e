package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
	"github.com/urfave/cli/v2"
)

// runCLI runs "skillc run ARGS..." in process with the run command alone
// and returns stdout, stderr and the exit status.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	s := &streams{in: strings.NewReader(""), out: &out, err: &errb}
	app := &cli.App{Name: "skillc", Writer: &out, ErrWriter: &errb, Commands: []*cli.Command{runCommand(s)},
		ExitErrHandler: func(*cli.Context, error) {}}
	err := app.Run(append([]string{"skillc", "run"}, args...))
	code := 0
	var ec cli.ExitCoder
	switch {
	case errors.As(err, &ec):
		code = ec.ExitCode()
		if msg := ec.Error(); msg != "" {
			errb.WriteString("skillc: " + msg + "\n")
		}
	case err != nil:
		t.Fatalf("run: %v", err)
	}
	return out.String(), errb.String(), code
}

// isolate points SKILLSCRIPT_HOME at an empty directory and clears the
// operator settings, so no configuration at all is in effect.
func isolate(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("SKILLSCRIPT_HOME", home)
	t.Setenv("HOME", home)
	for _, k := range []string{"SKILLSCRIPT_SHELL_ALLOWLIST", "SKILLSCRIPT_FS_ALLOWLIST", "SKILLSCRIPT_ENABLE_UNSAFE_SHELL"} {
		t.Setenv(k, "")
	}
	return home
}

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunExampleWithoutConfiguration runs an example of the own corpus
// that needs no configuration, with and without --var, and the shared
// corpus's hello-world when that is present.
func TestRunExampleWithoutConfiguration(t *testing.T) {
	isolate(t)
	welcome := testcorpus.Own(t, "examples", "welcome-note.skill.md")
	out, errOut, code := runCLI(t, welcome)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.HasPrefix(out, "Welcome aboard, newcomer!\nStart with these 3 documents:\n- handbook\n") {
		t.Errorf("stdout = %q", out)
	}
	out, _, _ = runCLI(t, "--var", "NAME=team", welcome)
	if !strings.HasPrefix(out, "Welcome aboard, team!\n") {
		t.Errorf("--var: stdout = %q", out)
	}
	t.Run("shared hello-world", func(t *testing.T) {
		hello := testcorpus.Shared(t, "corpus", "examples", "hello-world.skill.md")
		out, errOut, code := runCLI(t, hello)
		if code != 0 {
			t.Fatalf("exit %d, stderr:\n%s", code, errOut)
		}
		if !strings.HasPrefix(out, "Hello, world!\nYour install is healthy.") {
			t.Errorf("stdout = %q", out)
		}
		out, _, _ = runCLI(t, "--var", "WHO=team", hello)
		if !strings.HasPrefix(out, "Hello, team!\n") {
			t.Errorf("--var: stdout = %q", out)
		}
	})
}

func TestRunJSONAndFailureExit(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	skill := write(t, dir, "fail.skill.md", "# Skill: fail\n# Status: Approved\n\nrun:\n    emit(text=\"before\")\n    $ json_parse \"{bad\" -> P\n\ndefault: run\n")
	out, _, code := runCLI(t, "--json", skill)
	if code != 1 {
		t.Fatalf("exit = %d, want 1", code)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	errs, _ := res["errors"].([]any)
	if res["status"] != "failed" || len(errs) != 1 {
		t.Fatalf("result = %v", res)
	}
	_, errOut, code := runCLI(t, skill)
	if code != 1 || !strings.Contains(errOut, "fail.skill.md:6:5: error JSONParseError") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestRunRefusesOnCheckErrors(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	skill := write(t, dir, "bad.skill.md", "# Skill: bad\n\nrun:\n    if ${X} = \"a\":\n        emit(text=\"x\")\n\ndefault: run\n")
	out, errOut, code := runCLI(t, skill)
	if code != 1 || out != "" || !strings.Contains(errOut, "single-equals") || !strings.Contains(errOut, "not running") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}

func TestRunMockAndAllowShell(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	mockFile := write(t, dir, "mock.yaml", "mocks:\n  - op: llm\n    result: \"urgent\"\n  - op: tickets.search\n    result: [{id: T-1}, {id: T-2}]\n")
	skill := write(t, dir, "m.skill.md", `# Skill: m
# Status: Approved

run:
    $ llm prompt="classify" -> V
    $ tickets.search q="x" -> T
    shell(argv=["printf", "%s", "${T|length}"]) -> N
    emit(text="${V} ${N}")

default: run
`)
	out, errOut, code := runCLI(t, "--mock", mockFile, "--allow-shell", "printf", skill)
	if code != 0 || out != "urgent 2\n" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	// Without the grant the pre-run check already refuses (the operator's
	// allowlist is known); with --no-check the runtime gate refuses.
	_, errOut, code = runCLI(t, "--mock", mockFile, skill)
	if code != 1 || !strings.Contains(errOut, "shell-binary-not-allowed") {
		t.Errorf("without --allow-shell: exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = runCLI(t, "--mock", mockFile, "--no-check", skill)
	if code != 1 || !strings.Contains(errOut, "ShellBinaryNotAllowedError") {
		t.Errorf("without --allow-shell: exit %d, stderr:\n%s", code, errOut)
	}
}

func TestRunSecretsFromEnvironment(t *testing.T) {
	isolate(t)
	t.Setenv("SKILLSCRIPT_SECRET_TOKEN", "tok-abcdef-123456")
	dir := t.TempDir()
	skill := write(t, dir, "s.skill.md", `# Skill: s
# Status: Approved
# Requires: secret.TOKEN

run:
    shell(argv=["printf", "%s", "{{secret.TOKEN}}"]) -> OUT
    emit(text="${OUT}")

default: run
`)
	out, errOut, code := runCLI(t, "--allow-shell", "printf", "--json", skill)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// What the process returns after receiving the secret is tainted and
	// redacted whole (issue 13 item 8).
	if strings.Contains(out+errOut, "tok-abcdef-123456") || !strings.Contains(out, "{{secret-derived}}") {
		t.Errorf("secret handling wrong:\n%s", out)
	}
}

// TestRunImportsCrowdedSpool pins that skillc run imports the trace
// spool itself once more than spoolImportAt runs wait in it, so a spool
// nobody reads stays bounded, and that no run is lost on the way.
func TestRunImportsCrowdedSpool(t *testing.T) {
	home := isolate(t)
	defer func(n int) { spoolImportAt = n }(spoolImportAt)
	spoolImportAt = 2
	skill := filepath.Join(t.TempDir(), "hello.skill.md")
	if err := os.WriteFile(skill, []byte("# Skill: hello\n# Status: Draft\nrun:\n    emit(text=\"hi\")\ndefault: run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spooled := func() int {
		m, _ := filepath.Glob(filepath.Join(home, "traces", trace.SpoolDir, "*.run"))
		return len(m)
	}
	for i := 1; i <= 2; i++ {
		if out, errs, code := runCLI(t, skill); code != 0 || strings.TrimSpace(out) != "hi" {
			t.Fatalf("run %d: exit %d, stdout %q, stderr %q", i, code, out, errs)
		}
		if n := spooled(); n != i {
			t.Fatalf("after run %d the spool holds %d runs, want %d", i, n, i)
		}
	}
	if out, errs, code := runCLI(t, skill); code != 0 || strings.TrimSpace(out) != "hi" {
		t.Fatalf("run 3: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if n := spooled(); n != 0 {
		t.Fatalf("after the third run the spool holds %d runs, want 0 (imported)", n)
	}
	st, err := trace.Open(filepath.Join(home, "traces", trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Fires(context.Background(), trace.Filter{Skill: "hello"})
	if err != nil || len(runs) != 3 {
		t.Fatalf("runs in the store = %d, %v; want 3", len(runs), err)
	}
}
