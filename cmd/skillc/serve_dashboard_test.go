package main

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/syntax"
)

// TestServeDashboard approves a skill in the browser against a real
// `skillc serve` process in secured mode: the dashboard (behind the host
// token) lists the unsigned Draft, the MCP host refuses to run it, the
// passcode unlocks signing, and the signed skill then runs.
func TestServeDashboard(t *testing.T) {
	home := t.TempDir()
	keys := filepath.Join(t.TempDir(), "keys")
	writeSkill(t, home, "fx", "# Skill: fx\n# Status: Draft\n\nrun:\n    shell(argv=[\"echo\", \"signed\"]) -> R\n    emit(text=\"${R|trim}\")\ndefault: run\n")
	p := startServe(t, home, []string{
		"SKILLSCRIPT_SECURED_MODE=true", "SKILLSCRIPT_SHELL_ALLOWLIST=echo",
		"SKILLSCRIPT_APPROVAL_KEY_FILE=" + keys + "/approval.key", "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE=" + keys + "/approval.pub",
		"SKILLSCRIPT_APPROVAL_PASSCODE=open sesame", "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok",
	})
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	call := func(method, path string, form url.Values, out any) int {
		t.Helper()
		req, _ := http.NewRequest(method, p.url+path, strings.NewReader(form.Encode()))
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if out != nil {
			_ = json.NewDecoder(resp.Body).Decode(out)
		}
		return resp.StatusCode
	}
	if resp, err := http.Get(p.url + "/dashboard/api/pending"); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("dashboard without the token: %v %v", resp.StatusCode, err)
	}
	var st struct {
		Secured, Signing bool
		Items            []struct {
			Name     string
			FileHash string `json:"file_hash"`
		}
	}
	if code := call("GET", "/dashboard/api/pending", nil, &st); code != http.StatusOK || !st.Secured || !st.Signing || len(st.Items) != 1 {
		t.Fatalf("pending: %d %+v\n%s", code, st, p.stderr)
	}
	cs := connect(t, p.url, map[string]string{"Authorization": "Bearer tok"})
	var body struct{ Error string }
	if res := callJSON(t, cs, "execute_skill", map[string]any{"name": "fx"}, &body); !res.IsError {
		t.Fatalf("the unsigned draft ran in secured mode: %+v", body)
	}
	if code := call("POST", "/dashboard/unlock", url.Values{"passcode": {"open sesame"}}, nil); code != http.StatusOK {
		t.Fatalf("unlock: %d", code)
	}
	var msg map[string]string
	if code := call("POST", "/dashboard/approve", url.Values{"name": {"fx"}, "file_hash": {st.Items[0].FileHash}}, &msg); code != http.StatusOK {
		t.Fatalf("approve: %d %v", code, msg)
	}
	src, _ := os.ReadFile(filepath.Join(home, "skills", "fx.skill.md"))
	pub, err := approval.LoadPublicKey(keys + "/approval.pub")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.Parse("fx.skill.md", src)
	if sv := approval.StatusOf(f); sv == nil || approval.Verify(pub, src, sv.Token) != nil {
		t.Fatalf("the stored skill is not validly signed:\n%s", src)
	}
	var ex struct{ Status, Output string }
	callJSON(t, cs, "execute_skill", map[string]any{"name": "fx"}, &ex)
	if ex.Status != "ok" || ex.Output != "signed" {
		t.Errorf("signed skill run = %+v", ex)
	}
	if err := p.stop(t); err != nil {
		t.Errorf("exit: %v\n%s", err, p.stderr)
	}
}
