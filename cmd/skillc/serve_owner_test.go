package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// TestServeTriggerDedupe sends 200 identical register_trigger calls (from
// four sessions at once) and one more whose cron fields are spaced
// differently: every call answers the same trigger id and the skill has
// one trigger. Another timezone is another trigger.
func TestServeTriggerDedupe(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "hello", helloSkill)
	p := startServe(t, home, nil)
	args := map[string]any{"skill": "hello", "kind": "cron", "schedule": "0 9 * * 1-5"}
	type reg struct{ Trigger struct{ ID string } }
	ids := make(chan string, 200)
	var wg sync.WaitGroup
	for range 4 {
		cs := connect(t, p.url, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "register_trigger", Arguments: args})
				if err != nil || res.IsError {
					t.Errorf("register_trigger: %v %+v", err, res)
					return
				}
				var r reg
				if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &r); err != nil {
					t.Error(err)
					return
				}
				ids <- r.Trigger.ID
			}
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]int{}
	for id := range ids {
		seen[id]++
	}
	if len(seen) != 1 {
		t.Fatalf("200 identical registrations answered %d ids: %v", len(seen), seen)
	}
	cs := connect(t, p.url, nil)
	var again reg
	callJSON(t, cs, "register_trigger", map[string]any{"skill": "hello", "kind": "cron", "schedule": " 0  9 * *   1-5 "}, &again)
	if seen[again.Trigger.ID] != 200 {
		t.Errorf("the same schedule spaced differently got %q, want the existing %v", again.Trigger.ID, seen)
	}
	var list struct {
		Triggers []struct{ ID, Spec string }
	}
	callJSON(t, cs, "list_triggers", map[string]any{"skill": "hello"}, &list)
	if len(list.Triggers) != 1 || list.Triggers[0].Spec != "0 9 * * 1-5" {
		t.Fatalf("triggers of hello after 201 identical registrations = %+v, want one", list.Triggers)
	}
	var paris reg
	callJSON(t, cs, "register_trigger", map[string]any{"skill": "hello", "kind": "cron", "schedule": "0 9 * * 1-5", "timezone": "Europe/Paris"}, &paris)
	callJSON(t, cs, "list_triggers", map[string]any{"skill": "hello"}, &list)
	if paris.Trigger.ID == "" || seen[paris.Trigger.ID] != 0 || len(list.Triggers) != 2 {
		t.Errorf("another timezone: %q, triggers %+v", paris.Trigger.ID, list.Triggers)
	}
}

// TestServeTriggerRefusedUnfireable registers triggers on skills that can
// never fire — a Draft, a Disabled, an unknown skill and, in secured
// mode, an Approved one without a signature: each is refused with the
// reason and no trigger is stored.
func TestServeTriggerRefusedUnfireable(t *testing.T) {
	type refusal struct {
		Error, Message string
	}
	check := func(t *testing.T, cs *mcp.ClientSession, skill, wantErr, wantMsg string) {
		t.Helper()
		var r refusal
		res := callJSON(t, cs, "register_trigger", map[string]any{"skill": skill, "kind": "cron", "schedule": "*/5 * * * *"}, &r)
		if !res.IsError || r.Error != wantErr || !strings.Contains(r.Message, wantMsg) {
			t.Errorf("register_trigger on %s = %+v, want %s mentioning %q", skill, r, wantErr, wantMsg)
		}
		res = callJSON(t, cs, "register_trigger", map[string]any{"skill": skill, "kind": "event", "event": "ping-" + skill}, &r)
		if !res.IsError || r.Error != wantErr {
			t.Errorf("event register_trigger on %s = %+v, want %s", skill, r, wantErr)
		}
	}
	t.Run("unsecured", func(t *testing.T) {
		home := t.TempDir()
		writeSkill(t, home, "draft", "# Skill: draft\n# Status: Draft\n\nHello.\n")
		writeSkill(t, home, "off", "# Skill: off\n# Status: Disabled\n\nHello.\n")
		p := startServe(t, home, nil)
		cs := connect(t, p.url, nil)
		check(t, cs, "draft", "TriggerRefused", "is Draft: only Approved skills fire")
		check(t, cs, "off", "TriggerRefused", "is Disabled and never fires")
		check(t, cs, "nosuch", "SkillNotFound", `skill "nosuch" not found`)
		var list struct{ Triggers []any }
		callJSON(t, cs, "list_triggers", map[string]any{}, &list)
		if len(list.Triggers) != 0 {
			t.Errorf("refused registrations stored triggers: %+v", list.Triggers)
		}
	})
	t.Run("secured", func(t *testing.T) {
		home := t.TempDir()
		writeSkill(t, home, "unsigned", "# Skill: unsigned\n# Status: Approved\n\nHello.\n")
		p := startServe(t, home, securedEnv(t))
		cs := connect(t, p.url, nil)
		check(t, cs, "unsigned", "TriggerRefused", "Approved but unsigned")
		var list struct{ Triggers []any }
		callJSON(t, cs, "list_triggers", map[string]any{}, &list)
		if len(list.Triggers) != 0 {
			t.Errorf("refused registrations stored triggers: %+v", list.Triggers)
		}
	})
}
