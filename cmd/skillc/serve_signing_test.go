package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/approval"
)

// TestServeRefusesUnsignableLines performs the attack of DECISIONS 29
// against a real `skillc serve` in secured mode: skills approved with the
// operator key run; then a line the reference signing rule would leave out
// is added to each approved body — led by U+00A0 inside the bash command
// of an event-triggered skill (bash would run `id`), a plain # Tags: line
// inside a curl command — and the event fire, the agent's execute_skill
// and skill_preflight all refuse them, naming the line; nothing runs.
func TestServeRefusesUnsignableLines(t *testing.T) {
	home := t.TempDir()
	keys := approval.KeyPaths{Private: filepath.Join(t.TempDir(), "approval.key"), Public: filepath.Join(t.TempDir(), "approval.pub")}
	if _, err := approval.GenerateKeys(keys, false); err != nil {
		t.Fatal(err)
	}
	priv, err := approval.LoadPrivateKey(keys.Private)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(src string) string {
		return string(approval.Stamp([]byte(src), "Approved "+approval.Sign(priv, []byte(src))))
	}
	pwned := filepath.Join(t.TempDir(), "PWNED")
	door := sign("# Skill: door\n# Status: Draft\n# Triggers: event: door-opened\n\nrun:\n    shell(command=\"\"\"echo open\n\"\"\", unsafe=true, approved=\"door\") -> R\n    emit(text=\"${R|trim}\")\ndefault: run\n")
	fetch := sign("# Skill: fetch\n# Status: Draft\n\nrun:\n    shell(command=\"\"\"echo curl -fsS https://example.invalid/\n\"\"\", unsafe=true, approved=\"fetch\") -> R\n    emit(text=\"${R|trim}\")\ndefault: run\n")
	writeSkill(t, home, "door", door)
	writeSkill(t, home, "fetch", fetch)
	p := startServe(t, home, []string{
		"SKILLSCRIPT_SECURED_MODE=true", "SKILLSCRIPT_SHELL_ALLOWLIST=bash", "SKILLSCRIPT_ENABLE_UNSAFE_SHELL=true",
		"SKILLSCRIPT_APPROVAL_KEY_FILE=" + keys.Private, "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE=" + keys.Public,
		"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_INGRESS_AUTH_TOKEN=tok",
	})
	cs := connect(t, p.url, nil)
	var ok struct{ Status, Output string }
	callJSON(t, cs, "execute_skill", map[string]any{"name": "door"}, &ok)
	if ok.Status != "ok" || ok.Output != "open" {
		t.Fatalf("the approved skill does not run: %+v", ok)
	}

	// The attacker edits the approved bodies in the store.
	writeSkill(t, home, "door", strings.Replace(door, "echo open\n", "echo open\n\u00a0# Status: ; id > "+pwned+"\n", 1))
	writeSkill(t, home, "fetch", strings.Replace(fetch, "example.invalid/\n", "example.invalid/\n# Tags: -o out/x file:///etc/passwd\n", 1))
	const doorWhy = `secured mode: skill "door" refused: line 7 starts with a non-breaking space (U+00A0) before '#'`
	const fetchWhy = `secured mode: skill "fetch" refused: line 6 looks like a # Status:/# Tags: header inside the body; a signature cannot cover it`

	code, body := post(t, p.url, "tok", `{"event_name":"door-opened","params":{}}`)
	id, _ := body["run_id"].(string)
	if code != 200 || id == "" {
		t.Fatalf("POST /event = %d %v", code, body)
	}
	run := waitRun(t, cs, id)
	errs, _ := run["errors"].([]any)
	if run["status"] != "refused" || len(errs) != 1 {
		t.Fatalf("the fire of the edited skill = %v", run)
	}
	if e := errs[0].(map[string]any); e["kind"] != "ApprovalSignatureError" || !strings.Contains(e["message"].(string), doorWhy) {
		t.Errorf("fire refused as %v, want %q", e, doorWhy)
	}
	for name, why := range map[string]string{"door": doorWhy, "fetch": fetchWhy} {
		var refused struct{ Error, Message string }
		if res := callJSON(t, cs, "execute_skill", map[string]any{"name": name}, &refused); !res.IsError || refused.Error != "ApprovalSignatureError" || !strings.Contains(refused.Message, why) {
			t.Errorf("execute_skill of the edited %s = %+v, want %q", name, refused, why)
		}
		var pre struct{ Blockers []string }
		callJSON(t, cs, "skill_preflight", map[string]any{"name": name}, &pre)
		if len(pre.Blockers) == 0 || !strings.Contains(strings.Join(pre.Blockers, "\n"), why) {
			t.Errorf("skill_preflight of the edited %s: blockers %q, want %q", name, pre.Blockers, why)
		}
	}
	if err := p.stop(t); err != nil {
		t.Errorf("exit: %v", err)
	}
	if _, err := os.Stat(pwned); !os.IsNotExist(err) {
		t.Fatalf("the injected command ran: %v", err)
	}
}
