package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeRunScriptProjectApproval drives skills_run_script of a real
// skillc serve (--enable-scripts) over MCP for a package of the project
// root (issue 22 item 5): the script is refused, with the command that
// approves it, and does not run; a caller's GIT_CONFIG_* is refused; after
// the operator runs that command with the real CLI the script runs.
func TestServeRunScriptProjectApproval(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	home, project := t.TempDir(), t.TempDir()
	pwned := filepath.Join(t.TempDir(), "PWNED")
	writePackage(t, filepath.Join(project, ".agents", "skills", "tidy"), map[string]string{
		"SKILL.md":        "---\nname: tidy\ndescription: Tidies the workspace.\nmetadata:\n  env: OUT\n---\nRun scripts/tidy.sh.\n",
		"scripts/tidy.sh": "touch \"$OUT\"\necho tidied\n",
	})
	p := startServeIn(t, project, home, []string{"HOME=" + t.TempDir()}, "--enable-scripts")
	cs := connect(t, p.url, nil)
	callJSON(t, cs, "skills_load", map[string]any{"names": []string{"tidy"}}, nil)
	run := func(env map[string]any) *mcp.CallToolResult {
		return callJSON(t, cs, "skills_run_script", map[string]any{"skill": "tidy", "path": "scripts/tidy.sh", "env": env}, nil)
	}
	text := func(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

	res := run(map[string]any{"OUT": pwned})
	wantCmd := "skillc skills approve-scripts --project " + project + " project/tidy"
	if !res.IsError || !strings.Contains(text(res), "comes from the project root and is not approved") || !strings.Contains(text(res), wantCmd) {
		t.Fatalf("unapproved script: error=%v %s", res.IsError, text(res))
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("the unapproved project script ran")
	}

	approve := exec.Command("skillc", "skills", "approve-scripts", "--project", project, "project/tidy")
	approve.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home, "HOME="+t.TempDir())
	out, err := approve.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "approved the scripts of project/tidy at sha256:") {
		t.Fatalf("approve-scripts: %v\n%s", err, out)
	}

	res = run(map[string]any{"OUT": pwned, "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": "touch " + pwned})
	if !res.IsError || !strings.Contains(text(res), "GIT_CONFIG_COUNT") || !strings.Contains(text(res), "may not be set by a skill call") {
		t.Fatalf("GIT_CONFIG_* accepted: %s", text(res))
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("the script ran with the caller's GIT_CONFIG_*")
	}

	var got struct {
		ExitCode int `json:"exit_code"`
		Stdout   string
	}
	res = callJSON(t, cs, "skills_run_script", map[string]any{"skill": "tidy", "path": "scripts/tidy.sh", "env": map[string]any{"OUT": pwned}}, &got)
	if res.IsError || got.Stdout != "tidied\n" || got.ExitCode != 0 {
		t.Fatalf("approved script: %s", text(res))
	}
	if _, err := os.Stat(pwned); err != nil {
		t.Errorf("the approved script did not run: %v", err)
	}
}
