package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// fxSkill is an Approved skill with an effect (a shell op).
const fxSkill = "# Skill: fx\n# Status: Approved\n\nrun:\n    shell(argv=[\"echo\", \"owned\"]) -> R\n    emit(text=\"${R|trim}\")\ndefault: run\n"

// securedEnv puts a host in secured mode with its key pair under a
// temporary directory.
func securedEnv(t *testing.T) []string {
	keys := filepath.Join(t.TempDir(), "keys")
	return []string{"SKILLSCRIPT_SECURED_MODE=true",
		"SKILLSCRIPT_APPROVAL_KEY_FILE=" + keys + "/approval.key", "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE=" + keys + "/approval.pub"}
}

// TestServeClientApprovalWarning: an unsecured host with a skill store
// lets any MCP client write an effectful skill Approved and run it (the
// reference semantics, kept), and says so: one warning line on stderr at
// start and policy.client_approval in runtime_capabilities. A secured
// host refuses the same approval, prints no warning and reports false.
func TestServeClientApprovalWarning(t *testing.T) {
	type policy struct {
		Policy struct {
			SecuredMode    bool `json:"secured_mode"`
			ClientApproval bool `json:"client_approval"`
		}
	}
	t.Run("unsecured", func(t *testing.T) {
		p := startServe(t, t.TempDir(), []string{"SKILLSCRIPT_SHELL_ALLOWLIST=echo"})
		cs := connect(t, p.url, nil)
		var caps policy
		callJSON(t, cs, "runtime_capabilities", map[string]any{"include": []string{"policy"}}, &caps)
		if caps.Policy.SecuredMode || !caps.Policy.ClientApproval {
			t.Errorf("unsecured runtime_capabilities policy = %+v, want client_approval true", caps.Policy)
		}
		// the risk the warning names: a client approves and runs effects
		var w struct{ Status string }
		callJSON(t, cs, "skill_write", map[string]any{"name": "fx", "source": fxSkill}, &w)
		var ex struct{ Status, Output string }
		callJSON(t, cs, "execute_skill", map[string]any{"name": "fx"}, &ex)
		if w.Status != "Approved" || ex.Status != "ok" || ex.Output != "owned" {
			t.Errorf("unsecured client approval: write %+v, run %+v", w, ex)
		}
		if err := p.stop(t); err != nil {
			t.Errorf("exit: %v", err)
		}
		if n := strings.Count(p.stderr.String(), "skillc serve: warning: unsecured mode: any MCP client can write and approve skills"); n != 1 {
			t.Errorf("warning lines = %d, want 1; stderr:\n%s", n, p.stderr)
		}
	})
	t.Run("secured", func(t *testing.T) {
		p := startServe(t, t.TempDir(), append(securedEnv(t), "SKILLSCRIPT_SHELL_ALLOWLIST=echo"))
		cs := connect(t, p.url, nil)
		var caps policy
		callJSON(t, cs, "runtime_capabilities", map[string]any{"include": []string{"policy"}}, &caps)
		if !caps.Policy.SecuredMode || caps.Policy.ClientApproval {
			t.Errorf("secured runtime_capabilities policy = %+v, want client_approval false", caps.Policy)
		}
		var w struct {
			Status      string
			ForcedDraft bool `json:"forced_draft"`
		}
		callJSON(t, cs, "skill_write", map[string]any{"name": "fx", "source": fxSkill}, &w)
		var refused struct{ Error string }
		if res := callJSON(t, cs, "execute_skill", map[string]any{"name": "fx"}, &refused); w.Status != "Draft" || !w.ForcedDraft || !res.IsError {
			t.Errorf("secured client approval: write %+v, run %+v", w, refused)
		}
		if err := p.stop(t); err != nil {
			t.Errorf("exit: %v", err)
		}
		if strings.Contains(p.stderr.String(), "warning: unsecured mode") {
			t.Errorf("secured host printed the unsecured warning:\n%s", p.stderr)
		}
	})
}
