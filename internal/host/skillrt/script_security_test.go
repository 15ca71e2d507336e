package skillrt

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// gitStatusPackage is a package whose script runs git status in a fresh
// repository; metadataEnv is its SKILL.md metadata env ("" for none).
func gitStatusPackage(metadataEnv string) map[string]string {
	fm := "---\nname: gitinfo\ndescription: Reports the state of a repository.\n"
	if metadataEnv != "" {
		fm += "metadata:\n  env: " + metadataEnv + "\n"
	}
	return map[string]string{
		"gitinfo/SKILL.md":          fm + "---\nRun scripts/status.sh.\n",
		"gitinfo/scripts/status.sh": "git init -q repo && cd repo && git status --short >/dev/null 2>&1\necho checked\n",
	}
}

// gitRuntime indexes the package under origin and loads it, with scripts
// on and the package approved.
func gitRuntime(t *testing.T, origin, metadataEnv string) *Runtime {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	write(t, root, gitStatusPackage(metadataEnv))
	reg := registry.New(registry.Options{Roots: []registry.Root{{Dir: root, Origin: origin}}})
	reg.Refresh()
	rt := New(reg, Options{Scripts: ScriptOptions{Enabled: true, Approvals: NewScriptApprovals(filepath.Join(t.TempDir(), ScriptApprovalsFile))}})
	approve(t, rt, origin+"/gitinfo")
	if _, err := rt.Load("s", LoadInput{Names: []string{"gitinfo"}}); err != nil {
		t.Fatal(err)
	}
	return rt
}

// fsmonitorEnv is the attack of issue 22 item 5: git reads configuration
// from GIT_CONFIG_COUNT/KEY_n/VALUE_n, and core.fsmonitor is a command git
// status runs.
func fsmonitorEnv(pwned string) map[string]string {
	return map[string]string{
		"GIT_CONFIG_COUNT":   "1",
		"GIT_CONFIG_KEY_0":   "core.fsmonitor",
		"GIT_CONFIG_VALUE_0": "touch " + pwned + "; false",
	}
}

// TestRunScriptGitConfigInjection: a caller's GIT_CONFIG_* would make the
// package's git status run a command of the caller's choice (shown first
// by running the script directly with that environment); through
// skills_run_script the call is refused, also when the package itself
// declares the names, and the command never runs.
func TestRunScriptGitConfigInjection(t *testing.T) {
	// the attack is real: the same script with the same variables runs it
	probe := t.TempDir()
	write(t, probe, gitStatusPackage(""))
	marker := filepath.Join(t.TempDir(), "PWNED-direct")
	cmd := exec.Command("bash", "scripts/status.sh")
	cmd.Dir = filepath.Join(probe, "gitinfo")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + cmd.Dir}
	for k, v := range fsmonitorEnv(marker) {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("direct run: %v\n%s", err, out)
		}
		if _, err := os.Stat(marker); err != nil {
			t.Fatalf("git did not run core.fsmonitor from GIT_CONFIG_*; the attack this test guards against does not reproduce here: %v", err)
		}
	}

	pwned := filepath.Join(t.TempDir(), "PWNED")
	for _, c := range []struct{ name, metadataEnv, want string }{
		{"undeclared", "", `"GIT_CONFIG_COUNT" may not be set by a skill call`},
		{"declared", "GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0", `declares "GIT_CONFIG_COUNT" in its SKILL.md metadata env`},
	} {
		rt := gitRuntime(t, registry.OriginUser, c.metadataEnv)
		out, err := rt.RunScript(context.Background(), "s", RunScriptInput{Skill: "gitinfo", Path: "scripts/status.sh", Env: fsmonitorEnv(pwned)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %+v, %v; want a refusal containing %q", c.name, out, err, c.want)
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatalf("%s: the caller's core.fsmonitor command ran", c.name)
		}
	}
	// without the variables the script runs
	rt := gitRuntime(t, registry.OriginUser, "")
	out, err := rt.RunScript(context.Background(), "s", RunScriptInput{Skill: "gitinfo", Path: "scripts/status.sh"})
	if err != nil || out.Stdout != "checked\n" {
		t.Errorf("plain run: %+v, %v", out, err)
	}
}

// TestRunScriptEnvAllowlist: a caller may set only CallerEnv and the names
// the package declares; the variables of the issue (GIT_*, PAGER,
// GCONV_PATH, PERLLIB) and any other undeclared name are refused before
// anything runs.
func TestRunScriptEnvAllowlist(t *testing.T) {
	rt := scriptRuntime(t, ScriptOptions{})
	for _, k := range []string{"GIT_DIR", "GIT_SSH_COMMAND", "PAGER", "GCONV_PATH", "PERLLIB", "perl5opt", "LD_PRELOAD", "BASH_ENV", "HTTPS_PROXY", "PATH", "HOME", "SKILL_ROOT", "UNDECLARED", "A=B", ""} {
		out, err := rt.RunScript(context.Background(), "s", RunScriptInput{Skill: "pdf", Path: "scripts/hello.py", Env: map[string]string{k: "x"}})
		if err == nil {
			t.Errorf("env %q accepted: %+v", k, out)
		}
	}
	_, err := rt.RunScript(context.Background(), "s", RunScriptInput{Skill: "pdf", Path: "scripts/hello.py", Env: map[string]string{"UNDECLARED": "x"}})
	if err == nil || !strings.Contains(err.Error(), "not declared by skill pdf") || !strings.Contains(err.Error(), "metadata env") {
		t.Errorf("undeclared: %v", err)
	}
	for _, env := range []map[string]string{{"MODE": "fast"}, {"TZ": "UTC", "NO_COLOR": "1"}} {
		if out, err := rt.RunScript(context.Background(), "s", RunScriptInput{Skill: "pdf", Path: "scripts/hello.py", Env: env}); err != nil || out.ExitCode != 3 {
			t.Errorf("env %v: %+v, %v", env, out, err)
		}
	}
}

// TestRunScriptNeedsApproval: a package from the project root runs its
// scripts only after the operator approved its digest; the refusal names
// the command; a change to the package revokes the approval; a package of
// the user's root needs none; an MCP package is refused too.
func TestRunScriptNeedsApproval(t *testing.T) {
	base := t.TempDir()
	project, user := filepath.Join(base, "project"), filepath.Join(base, "user")
	pwned := filepath.Join(base, "PWNED")
	pkg := func(name string) map[string]string {
		return map[string]string{
			name + "/SKILL.md":         "---\nname: " + name + "\ndescription: Touches a file.\nmetadata:\n  env: OUT\n---\nRun scripts/touch.sh.\n",
			name + "/scripts/touch.sh": "touch \"$OUT\"\necho touched\n",
		}
	}
	write(t, project, pkg("proj"))
	write(t, user, pkg("mine"))
	reg := registry.New(registry.Options{Roots: []registry.Root{{Dir: project, Origin: registry.OriginProject}, {Dir: user, Origin: registry.OriginUser}}})
	reg.Refresh()
	store := NewScriptApprovals(filepath.Join(base, "home", ScriptApprovalsFile))
	rt := New(reg, Options{Scripts: ScriptOptions{Enabled: true, Approvals: store, Project: "/src/my repo"}})
	if _, err := rt.Load("s", LoadInput{Names: []string{"proj", "mine"}}); err != nil {
		t.Fatal(err)
	}
	run := func(skill string) (RunScriptOutput, error) {
		return rt.RunScript(context.Background(), "s", RunScriptInput{Skill: skill, Path: "scripts/touch.sh", Env: map[string]string{"OUT": pwned}})
	}

	_, err := run("proj")
	if err == nil || !strings.Contains(err.Error(), "skillc skills approve-scripts --project '/src/my repo' project/proj") {
		t.Fatalf("unapproved project package: %v", err)
	}
	if _, serr := os.Stat(pwned); serr == nil {
		t.Fatal("the unapproved script ran")
	}
	if out, err := run("mine"); err != nil || out.Stdout != "touched\n" {
		t.Fatalf("user package: %+v, %v", out, err)
	}
	os.Remove(pwned)

	rec, _ := reg.Lookup("project/proj")
	if err := store.Approve("project/proj", rec.Digest); err != nil {
		t.Fatal(err)
	}
	if out, err := run("proj"); err != nil || out.Stdout != "touched\n" {
		t.Fatalf("approved package: %+v, %v", out, err)
	}
	os.Remove(pwned)

	// the package changes: the approval no longer covers it
	write(t, project, map[string]string{"proj/scripts/touch.sh": "touch \"$OUT\"\necho changed\n"})
	reg.Refresh()
	if _, err := rt.Load("s", LoadInput{Names: []string{"proj"}, Mode: "add"}); err != nil {
		t.Fatal(err)
	}
	_, err = run("proj")
	if err == nil || !strings.Contains(err.Error(), "changed since the operator approved it") || !strings.Contains(err.Error(), "approve-scripts") {
		t.Fatalf("changed package: %v", err)
	}
	if _, serr := os.Stat(pwned); serr == nil {
		t.Fatal("the changed script ran")
	}
	if ok, err := store.Revoke("project/proj"); !ok || err != nil {
		t.Errorf("revoke: %v %v", ok, err)
	}
	if info, err := os.Stat(store.Path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("approvals file: %v %v", info, err)
	}
}

// TestRunScriptMCPPackageNeedsApproval: a package that arrived from an MCP
// server is refused with the approve command carrying its digest.
func TestRunScriptMCPPackageNeedsApproval(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"remote/SKILL.md": "---\nname: remote\ndescription: Remote.\n---\nx\n", "remote/scripts/x.sh": "echo ran\n"})
	local := registry.New(registry.Options{Roots: []registry.Root{{Dir: root, Origin: registry.OriginUser}}})
	local.Refresh()
	rec, _ := local.Lookup("user/remote")
	ext := *rec
	ext.Origin = "mcp:hub"
	reg := registry.New(registry.Options{External: []*registry.Record{&ext}})
	reg.Refresh()
	rt := New(reg, Options{Scripts: ScriptOptions{Enabled: true, Approvals: NewScriptApprovals(filepath.Join(t.TempDir(), ScriptApprovalsFile))}})
	if _, err := rt.Load("s", LoadInput{Names: []string{"remote"}}); err != nil {
		t.Fatal(err)
	}
	out, err := rt.RunScript(context.Background(), "s", RunScriptInput{Path: "scripts/x.sh"})
	if err == nil || !strings.Contains(err.Error(), "comes from MCP server hub") || !strings.Contains(err.Error(), "approve-scripts --digest "+rec.Digest+" mcp:hub/remote") {
		t.Fatalf("MCP package: %+v, %v", out, err)
	}
	approve(t, rt, "mcp:hub/remote")
	if out, err := rt.RunScript(context.Background(), "s", RunScriptInput{Path: "scripts/x.sh"}); err != nil || out.Stdout != "ran\n" {
		t.Errorf("approved MCP package: %+v, %v", out, err)
	}
}
