package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeGateway starts a real skillc serve over a skill store holding a
// skillscript, a sidecar and a package, then drives the gateway through
// MCP (skills_discover, skills_list, skills_run, skills_attach) and
// through HTTP under /gateway/ (with the bearer token /mcp requires).
func TestServeGateway(t *testing.T) {
	home := t.TempDir()
	store := filepath.Join(home, "skills")
	files := map[string]string{
		"nightly-report.skill.md": "# Skill: nightly-report\n# Description: Summarize the nightly job failures.\n# Status: Approved\n# Classification: role=procedure invocation=direct effect_mode=read_only\n# Vars: DAY=\"monday\"\n# Timeout: 30\n\nreport:\n    emit(text=\"2 jobs failed on ${DAY}\")\n\ndefault: report\n",
		"job-auditor.skill.md":    "# Skill: job-auditor\n# Description: Audits a nightly job run.\n# Status: Approved\n# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=output,run\n# Vars: TARGET, TARGET_REF\n# Timeout: 30\n\naudit:\n    emit(text=\"audited ${TARGET_REF}: ${TARGET}\")\n\ndefault: audit\n",
		"draft-writer.skill.md":   "# Skill: draft-writer\n# Description: Writes a file.\n# Status: Draft\n# Autonomous: true\n# Classification: role=utility invocation=direct effect_mode=enrich\n# Timeout: 30\n\nmain:\n    file_write(path=\"never.txt\", content=\"x\")\n\ndefault: main\n",
		"style/SKILL.md":          "---\nname: style\ndescription: Reviews job reports against the style guide.\nmetadata:\n  classification.role: utility\n  classification.invocation: both\n  classification.effect_mode: read_only\n  classification.attach_targets: artifact output\n---\nUse short sentences.\n",
	}
	for name, body := range files {
		p := filepath.Join(store, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	arts := filepath.Join(home, "artifacts")
	os.MkdirAll(arts, 0o755)
	os.WriteFile(filepath.Join(arts, "report.md"), []byte("All good."), 0o644)
	p := startServe(t, home, []string{"HOME=" + t.TempDir(), "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok"}, "--artifacts", arts)
	cs := connect(t, p.url, map[string]string{"Authorization": "Bearer tok"})

	var disc struct {
		Results []struct {
			SkillID     string   `json:"skill_id"`
			ReasonCodes []string `json:"reason_codes"`
		}
	}
	callJSON(t, cs, "skills_discover", map[string]any{"intent": "summarize the nightly job failures"}, &disc)
	if len(disc.Results) == 0 || disc.Results[0].SkillID != "store/nightly-report" {
		t.Fatalf("skills_discover = %+v", disc)
	}
	for _, r := range disc.Results {
		if r.SkillID == "store/job-auditor" {
			t.Errorf("sidecar offered for a direct intent: %+v", disc)
		}
	}
	// a skill written while the host runs is discovered (the registry watches the store)
	late := "# Skill: late-arrival\n# Description: Reconciles quarterly vendor payouts.\n# Status: Approved\n# Classification: role=procedure invocation=direct effect_mode=read_only\n# Timeout: 30\n\nmain:\n    emit(text=\"x\")\n\ndefault: main\n"
	if err := os.WriteFile(filepath.Join(store, "late-arrival.skill.md"), []byte(late), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		callJSON(t, cs, "skills_discover", map[string]any{"intent": "reconcile vendor payouts"}, &disc)
		return len(disc.Results) > 0 && disc.Results[0].SkillID == "store/late-arrival"
	})
	var list struct {
		Skills []struct {
			SkillID string `json:"skill_id"`
			Role    string `json:"role"`
		} `json:"skills"`
		Total int
	}
	callJSON(t, cs, "skills_list", map[string]any{"role": "sidecar"}, &list)
	if list.Total != 1 || len(list.Skills) != 1 || list.Skills[0].SkillID != "store/job-auditor" {
		t.Errorf("skills_list = %+v", list)
	}
	var run struct {
		Execution struct {
			TraceID string `json:"trace_id"`
			Status  string `json:"status"`
			Output  string `json:"output"`
		} `json:"execution"`
	}
	callJSON(t, cs, "skills_run", map[string]any{"skill_id": "nightly-report", "inputs": map[string]any{"DAY": "sunday"}}, &run)
	if run.Execution.Status != "ok" || run.Execution.Output != "2 jobs failed on sunday" || run.Execution.TraceID == "" {
		t.Fatalf("skills_run = %+v", run)
	}
	var att struct {
		Execution struct {
			Output string `json:"output"`
		} `json:"execution"`
	}
	callJSON(t, cs, "skills_attach", map[string]any{"skill_id": "job-auditor", "target_type": "output", "target_ref": run.Execution.TraceID}, &att)
	if att.Execution.Output != "audited "+run.Execution.TraceID+": 2 jobs failed on sunday" {
		t.Errorf("skills_attach = %+v", att)
	}
	// refusals are isError results with the structured reason
	var refusal struct {
		Error   string
		Details struct{ Code, Field string }
	}
	res := callJSON(t, cs, "skills_run", map[string]any{"skill_id": "job-auditor"}, &refusal)
	if !res.IsError || refusal.Error != "RequestError" || refusal.Details.Code != "not_callable" {
		t.Errorf("skills_run of a sidecar: %+v", refusal)
	}
	res = callJSON(t, cs, "skills_run", map[string]any{"skill_id": "draft-writer"}, &refusal)
	if !res.IsError || refusal.Details.Code != "run_refused" {
		t.Errorf("skills_run of an effectful Draft: %+v", refusal)
	}
	res = callJSON(t, cs, "skills_attach", map[string]any{"skill_id": "job-auditor", "target_type": "output", "target_ref": "nope"}, &refusal)
	if !res.IsError || refusal.Error != "AttachValidationError" || refusal.Details.Code != "target_not_found" {
		t.Errorf("skills_attach to a missing run: %+v", refusal)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `no recorded run has trace id \"nope\"`) {
		t.Errorf("refusal text: %s", text)
	}

	// HTTP: the same core, guarded by the bearer token
	do := func(path, body, token string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, p.url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var m map[string]any
		json.Unmarshal(data, &m)
		return resp.StatusCode, m
	}
	if code, _ := do("/gateway/list", `{}`, ""); code != http.StatusUnauthorized {
		t.Errorf("/gateway/list without token: %d", code)
	}
	code, m := do("/gateway/attach", `{"skill_id":"style","target_type":"artifact","target_ref":"report.md"}`, "tok")
	ex, _ := m["execution"].(map[string]any)
	if code != 200 || ex["kind"] != "agentskill" || ex["inputs"].(map[string]any)["TARGET"] != "All good." {
		t.Errorf("/gateway/attach artifact: %d %v", code, m)
	}
	code, m = do("/gateway/attach", `{"skill_id":"style","target_type":"artifact","target_ref":"../traces/traces.db"}`, "tok")
	if code != http.StatusUnprocessableEntity || m["reason"].(map[string]any)["code"] != "target_outside_root" {
		t.Errorf("/gateway/attach escaping: %d %v", code, m)
	}
	req, _ := http.NewRequest(http.MethodGet, p.url+"/gateway/openapi.json", nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(data), `"/gateway/discover"`) {
		t.Errorf("openapi: %d %.200s", resp.StatusCode, data)
	}
}
