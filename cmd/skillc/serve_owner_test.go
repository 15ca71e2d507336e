package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
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
	// the registration rate limit (TestServeLimits) is off: this test is
	// about 200 registrations at once
	p := startServe(t, home, []string{"SKILLSCRIPT_TRIGGER_REGISTER_RATE=0"})
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

// reportSkill is alice's skill in the ownership tests.
const reportSkill = "# Skill: report\n# Status: Approved\n\nrun:\n    shell(argv=[\"echo\", \"alice's report\"]) -> R\n    emit(text=\"${R|trim}\")\ndefault: run\n"

// TestServeSkillOwnership: with --identity-header, caller bob tries to
// overwrite, disable, demote and (through a run's $ skill_write) replace
// alice's skill; a request without the header tries too. Each is refused
// with NotSkillOwner and alice's skill is intact and still runs. alice
// changes her own skill; the operator identity (--operator-identity)
// changes anyone's, and a skill placed in the store directory (no
// recorded author) belongs to the operator. There is no delete over MCP
// or HTTP: deleting is the CLI's (skillc skills delete), the operator's.
// What fires alice's skill is hers too: bob can neither register a
// trigger on it nor remove or disable hers; the operator can.
func TestServeSkillOwnership(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "placed", "# Skill: placed\n# Status: Approved\n\nPlaced by the operator.\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_SHELL_ALLOWLIST=echo"}, "--identity-header", "X-Agent-Id", "--operator-identity", "ops")
	alice := connect(t, p.url, map[string]string{"X-Agent-Id": "alice"})
	bob := connect(t, p.url, map[string]string{"X-Agent-Id": "bob"})
	ops := connect(t, p.url, map[string]string{"X-Agent-Id": "ops"})
	anon := connect(t, p.url, nil)

	var w struct{ Author, Status, Version string }
	callJSON(t, alice, "skill_write", map[string]any{"name": "report", "source": reportSkill}, &w)
	if w.Author != "alice" || w.Status != "Approved" {
		t.Fatalf("alice's write = %+v", w)
	}
	intact := func(t *testing.T, who string) {
		t.Helper()
		var r struct{ Author, Status, Source string }
		callJSON(t, alice, "skill_read", map[string]any{"name": "report"}, &r)
		var ex struct{ Status, Output string }
		callJSON(t, alice, "execute_skill", map[string]any{"name": "report"}, &ex)
		if r.Source != reportSkill || r.Author != "alice" || r.Status != "Approved" || ex.Output != "alice's report" {
			t.Errorf("after %s: report = %+v, run %+v", who, r, ex)
		}
	}
	refused := func(t *testing.T, cs *mcp.ClientSession, who, tool string, args map[string]any) {
		t.Helper()
		var e struct {
			Error, Message string
			Details        map[string]string
		}
		res := callJSON(t, cs, tool, args, &e)
		if !res.IsError || e.Error != "NotSkillOwner" || e.Details["owner"] != "alice" || !strings.Contains(e.Message, `belongs to "alice"`) {
			t.Errorf("%s %s %v = %+v, want NotSkillOwner", who, tool, args, e)
		}
	}
	evil := strings.Replace(reportSkill, "alice's report", "bob was here", 1)
	refused(t, bob, "bob", "skill_write", map[string]any{"name": "report", "source": evil})
	refused(t, bob, "bob", "skill_write", map[string]any{"name": "report", "source": strings.Replace(reportSkill, "Approved", "Draft", 1)})
	refused(t, bob, "bob", "skill_status", map[string]any{"name": "report", "status": "Disabled"})
	refused(t, bob, "bob", "skill_status", map[string]any{"name": "report", "status": "Draft"})
	refused(t, anon, "a caller without the header", "skill_write", map[string]any{"name": "report", "source": evil})
	refused(t, anon, "a caller without the header", "skill_status", map[string]any{"name": "report", "status": "Disabled"})
	intact(t, "bob's direct attempts")

	// through a run: bob's own (approved) skill writes alice's
	sneak := "# Skill: sneak\n# Status: Approved\n# Autonomous: true\n\nrun:\n    $ skill_write name=\"report\" source=\"# Skill: report\\n# Status: Draft\\n\\nbob was here\\n\" overwrite=true -> W\n    emit(text=\"wrote\")\ndefault: run\n"
	callJSON(t, bob, "skill_write", map[string]any{"name": "sneak", "source": sneak}, nil)
	var ex struct {
		Status string
		Result struct {
			Errors []struct{ Message string }
		}
	}
	callJSON(t, bob, "execute_skill", map[string]any{"name": "sneak"}, &ex)
	if ex.Status != "failed" || len(ex.Result.Errors) == 0 || !strings.Contains(ex.Result.Errors[0].Message, `belongs to "alice"`) {
		t.Errorf("bob's run writing alice's skill = %+v", ex)
	}
	intact(t, "bob's run")

	// the triggers of alice's skill are hers to manage too
	var tr struct{ Trigger struct{ ID string } }
	callJSON(t, alice, "register_trigger", map[string]any{"skill": "report", "kind": "cron", "schedule": "0 9 * * *"}, &tr)
	if tr.Trigger.ID == "" {
		t.Fatalf("alice's trigger = %+v", tr)
	}
	refused(t, bob, "bob", "register_trigger", map[string]any{"skill": "report", "kind": "cron", "schedule": "*/5 * * * *"})
	refused(t, bob, "bob", "unregister_trigger", map[string]any{"id": tr.Trigger.ID})
	refused(t, bob, "bob", "set_trigger_enabled", map[string]any{"id": tr.Trigger.ID, "enabled": false})
	var lt struct {
		Triggers []struct {
			ID, Spec string
			Enabled  bool
		}
	}
	callJSON(t, alice, "list_triggers", map[string]any{"skill": "report"}, &lt)
	if len(lt.Triggers) != 1 || lt.Triggers[0].ID != tr.Trigger.ID || !lt.Triggers[0].Enabled {
		t.Errorf("alice's triggers after bob's attempts = %+v", lt)
	}
	callJSON(t, ops, "set_trigger_enabled", map[string]any{"id": tr.Trigger.ID, "enabled": false}, nil)
	callJSON(t, alice, "unregister_trigger", map[string]any{"id": tr.Trigger.ID}, nil)

	// no tool deletes a skill
	var tools []string
	for tool, err := range bob.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool.Name)
	}
	for _, name := range tools {
		if strings.Contains(name, "delete") || strings.Contains(name, "remove") {
			t.Errorf("a tool deletes skills: %s", name)
		}
	}

	// the owner and the operator may
	callJSON(t, alice, "skill_status", map[string]any{"name": "report", "status": "Disabled"}, &w)
	if w.Status != "Disabled" {
		t.Errorf("alice disabling her skill = %+v", w)
	}
	callJSON(t, alice, "skill_write", map[string]any{"name": "report", "source": reportSkill}, &w)
	callJSON(t, ops, "skill_status", map[string]any{"name": "report", "status": "Draft"}, &w)
	if w.Status != "Draft" {
		t.Errorf("the operator demoting alice's skill = %+v", w)
	}
	callJSON(t, ops, "skill_write", map[string]any{"name": "report", "source": reportSkill}, &w)
	if w.Status != "Approved" || w.Author != "ops" {
		t.Errorf("the operator overwriting alice's skill = %+v", w)
	}
	// ownership stays with the first author: alice still may, bob still may not
	refused(t, bob, "bob", "skill_status", map[string]any{"name": "report", "status": "Disabled"})
	callJSON(t, alice, "skill_status", map[string]any{"name": "report", "status": "Approved"}, &w)
	if w.Status != "Approved" {
		t.Errorf("alice after the operator's edit = %+v", w)
	}
	// a skill without a recorded author is the operator's
	var e struct{ Error, Message string }
	if res := callJSON(t, bob, "skill_status", map[string]any{"name": "placed", "status": "Disabled"}, &e); !res.IsError || e.Error != "NotSkillOwner" || !strings.Contains(e.Message, "the operator") {
		t.Errorf("bob disabling the operator's placed skill = %+v", e)
	}
	callJSON(t, ops, "skill_status", map[string]any{"name": "placed", "status": "Disabled"}, &w)
	if w.Status != "Disabled" {
		t.Errorf("the operator disabling its placed skill = %+v", w)
	}
	var caps struct {
		Features struct {
			SkillOwnership bool `json:"skill_ownership"`
		}
	}
	callJSON(t, bob, "runtime_capabilities", map[string]any{"include": []string{"features"}}, &caps)
	if !caps.Features.SkillOwnership {
		t.Errorf("runtime_capabilities features = %+v, want skill_ownership", caps.Features)
	}
}

// TestServeGatewayCallerHeaderWins runs a skill through the gateway with
// options.caller "mallory" while the identity header says "yves": over
// HTTP (POST /gateway/run) and MCP (skills_run) the trace records yves.
// Without an identity header the body's caller is recorded.
func TestServeGatewayCallerHeaderWins(t *testing.T) {
	const skill = "# Skill: ping\n# Description: Answers pong.\n# Status: Approved\n# Classification: role=procedure invocation=direct effect_mode=read_only\n# Timeout: 30\n\nmain:\n    emit(text=\"pong\")\n\ndefault: main\n"
	gatewayRun := func(t *testing.T, url string, header map[string]string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, url+"/gateway/run", strings.NewReader(`{"skill_id":"ping","options":{"caller":"mallory"}}`))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Execution struct {
				TraceID string `json:"trace_id"`
				Status  string
			}
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || out.Execution.Status != "ok" {
			t.Fatalf("POST /gateway/run = %d %+v %v", resp.StatusCode, out, err)
		}
		return out.Execution.TraceID
	}
	t.Run("identity header", func(t *testing.T) {
		home := t.TempDir()
		writeSkill(t, home, "ping", skill)
		p := startServe(t, home, []string{"HOME=" + t.TempDir()}, "--identity-header", "X-Agent-Id")
		cs := connect(t, p.url, map[string]string{"X-Agent-Id": "yves"})
		id := gatewayRun(t, p.url, map[string]string{"X-Agent-Id": "yves"})
		if run := waitRun(t, cs, id); run["caller_agent_id"] != "yves" {
			t.Errorf("HTTP gateway run recorded caller %v, want the header's yves", run["caller_agent_id"])
		}
		// no header on the request: the body still cannot name the caller
		id = gatewayRun(t, p.url, nil)
		if run := waitRun(t, cs, id); run["caller_agent_id"] != nil {
			t.Errorf("HTTP gateway run without the header recorded caller %v, want none", run["caller_agent_id"])
		}
		var run struct {
			Execution struct {
				TraceID string `json:"trace_id"`
			} `json:"execution"`
		}
		callJSON(t, cs, "skills_run", map[string]any{"skill_id": "ping", "options": map[string]any{"caller": "mallory"}}, &run)
		if got := waitRun(t, cs, run.Execution.TraceID); got["caller_agent_id"] != "yves" {
			t.Errorf("MCP skills_run recorded caller %v, want the header's yves", got["caller_agent_id"])
		}
	})
	t.Run("no identity header", func(t *testing.T) {
		home := t.TempDir()
		writeSkill(t, home, "ping", skill)
		p := startServe(t, home, []string{"HOME=" + t.TempDir()})
		cs := connect(t, p.url, nil)
		id := gatewayRun(t, p.url, map[string]string{"X-Agent-Id": "yves"})
		if run := waitRun(t, cs, id); run["caller_agent_id"] != "mallory" {
			t.Errorf("gateway run without an identity header recorded caller %v, want the body's mallory", run["caller_agent_id"])
		}
	})
}

// TestServeOperatorIdentityNeedsHeader: an operator identity without an
// identity header (from the environment) would never match a caller;
// serve refuses to start and says what is missing.
func TestServeOperatorIdentityNeedsHeader(t *testing.T) {
	cmd := exec.Command("skillc", "serve", "--port", "0")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "SKILLSCRIPT_OPERATOR_IDENTITY=ops")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(string(out), "needs an identity header") {
		t.Fatalf("err = %v, output %s", err, out)
	}
}
