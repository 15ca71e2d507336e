package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusedFireIsTraced fires an event trigger of an Approved
// skill that carries no signature at a host in secured mode: the gate
// refuses the run before its first op, and the refusal is a trace row
// under the run_id /event answered with (status refused, the typed
// error), as is an agent's refused execute_skill; health_metrics counts
// both as refused, not failed.
func TestServeRefusedFireIsTraced(t *testing.T) {
	home := t.TempDir()
	keys := filepath.Join(t.TempDir(), "keys")
	writeSkill(t, home, "door", "# Skill: door\n# Status: Approved\n# Triggers: event: door-opened\n\nrun:\n    shell(argv=[\"echo\", \"open\"]) -> R\n    emit(text=\"${R|trim}\")\ndefault: run\n")
	p := startServe(t, home, []string{
		"SKILLSCRIPT_SECURED_MODE=true", "SKILLSCRIPT_SHELL_ALLOWLIST=echo",
		"SKILLSCRIPT_APPROVAL_KEY_FILE=" + keys + "/approval.key", "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE=" + keys + "/approval.pub",
		"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_INGRESS_AUTH_TOKEN=tok",
	})
	code, body := post(t, p.url, "tok", `{"event_name":"door-opened","params":{}}`)
	id, _ := body["run_id"].(string)
	if code != 200 || id == "" {
		t.Fatalf("POST /event = %d %v", code, body)
	}
	cs := connect(t, p.url, nil)
	run := waitRun(t, cs, id)
	errs, _ := run["errors"].([]any)
	if run["status"] != "refused" || run["trigger_kind"] != "event" || run["skill"] != "door" || len(errs) != 1 {
		t.Fatalf("refused fire's trace = %v", run)
	}
	if e := errs[0].(map[string]any); e["kind"] != "ApprovalSignatureError" || !strings.Contains(e["message"].(string), "door") {
		t.Errorf("refusal recorded as %v", e)
	}
	var refused struct{ Error string }
	if res := callJSON(t, cs, "execute_skill", map[string]any{"name": "door"}, &refused); !res.IsError || refused.Error != "ApprovalSignatureError" {
		t.Fatalf("execute_skill of the unsigned skill = %+v", refused)
	}
	var fires struct{ Runs []map[string]any }
	callJSON(t, cs, "fires", map[string]any{"skill": "door"}, &fires)
	if len(fires.Runs) != 2 {
		t.Fatalf("fires of door = %v", fires.Runs)
	}
	for _, r := range fires.Runs {
		if r["status"] != "refused" {
			t.Errorf("a refused run recorded as %v", r["status"])
		}
	}
	var health struct {
		Skills []struct {
			Skill                 string
			Runs, Refused, Failed int
		}
	}
	callJSON(t, cs, "health_metrics", map[string]any{"skill": "door"}, &health)
	if len(health.Skills) != 1 || health.Skills[0].Runs != 2 || health.Skills[0].Refused != 2 || health.Skills[0].Failed != 0 {
		t.Errorf("health_metrics of door = %+v", health.Skills)
	}
	if err := p.stop(t); err != nil {
		t.Errorf("exit: %v", err)
	}
	// stderr is complete (and no longer written) once the process exited.
	if !strings.Contains(p.stderr.String(), "fire refused; not retried") {
		t.Errorf("no refusal log line:\n%s", p.stderr)
	}
}

// TestServeExecuteSourceLintRefused: an inline execute_skill source with a
// lint error is refused like a skill_write (LintError with the
// diagnostics' ranges) and nothing runs or is traced; a clean one runs.
func TestServeExecuteSourceLintRefused(t *testing.T) {
	home := t.TempDir()
	p := startServe(t, home, nil)
	cs := connect(t, p.url, nil)
	var refused struct {
		Error, Message string
		Details        []struct {
			Rule         string `json:"rule"`
			Line, Column int
		}
	}
	bad := "# Skill: adhoc\n\nrun:\n    emit(text=\"${NOPE}\")\ndefault: run\n"
	if res := callJSON(t, cs, "execute_skill", map[string]any{"source": bad}, &refused); !res.IsError || refused.Error != "LintError" {
		t.Fatalf("execute_skill of a source with a lint error = %+v", refused)
	}
	if len(refused.Details) == 0 || refused.Details[0].Line != 4 || !strings.HasPrefix(refused.Message, "not run: ") {
		t.Errorf("lint refusal = %+v", refused)
	}
	var fires struct{ Runs []map[string]any }
	callJSON(t, cs, "fires", map[string]any{}, &fires)
	if len(fires.Runs) != 0 {
		t.Errorf("a refused source was run or traced: %v", fires.Runs)
	}
	var ok struct{ Status, Output string }
	callJSON(t, cs, "execute_skill", map[string]any{"source": "# Skill: adhoc\n# Vars: N=\"1\"\n\nn=${N}\n", "inputs": map[string]any{"N": "2"}}, &ok)
	if ok.Status != "ok" || ok.Output != "n=2" {
		t.Errorf("clean source run = %+v", ok)
	}
}
