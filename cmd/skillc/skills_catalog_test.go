package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillscript/skillc/internal/host/serve"
)

// bigCatalog writes n packages of one publisher under
// <project>/.agents/skills, the last of which (by name, so the last the
// scan reaches) is the only spreadsheet auditor.
func bigCatalog(t *testing.T, n int) string {
	t.Helper()
	project := t.TempDir()
	root := filepath.Join(project, ".agents", "skills")
	for i := range n {
		name := fmt.Sprintf("acme-report-%04d", i)
		desc := fmt.Sprintf("Builds the weekly %s report for team %d from the ticket tracker. Use when a manager asks for the week's numbers.", []string{"sales", "support", "ops", "hiring"}[i%4], i)
		if i == n-1 {
			name, desc = "zz-xlsx-auditor", "Audits xlsx spreadsheets for broken formulas, hard-coded totals and hidden sheets. Use when a workbook's numbers look wrong."
		}
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		md := fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata:\n  domain: reporting\n---\n# %s\n\nFollow the team's reporting checklist.\n", name, desc, name)
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return project
}

// skillc runs the command line in-process and returns stdout, stderr and
// the exit status.
func skillc(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out, errb bytes.Buffer
	code := run(append([]string{"skillc"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// TestScanTruncationReported indexes 5,000 packages under one root: with
// the default limit every registry command says the scan was cut
// (truncated in JSON, a warning on stderr) and the package past the
// limit is not ranked; raising the limit by flag or environment indexes
// all of them and the warning goes away.
func TestScanTruncationReported(t *testing.T) {
	project := bigCatalog(t, 5000)
	base := []string{"--project", project, "--no-user"}

	out, errs, code := skillc(t, nil, append([]string{"skills", "discover", "--json"}, append(base, "audit", "xlsx", "spreadsheets")...)...)
	if code != 0 {
		t.Fatalf("discover exit %d: %s", code, errs)
	}
	var d struct {
		Truncated bool     `json:"truncated"`
		Warnings  []string `json:"warnings"`
		Results   []struct {
			SkillID string `json:"skill_id"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if !d.Truncated || len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], "2000 directories") {
		t.Errorf("discover JSON: truncated=%v warnings=%q, want truncated with the limit named", d.Truncated, d.Warnings)
	}
	if !strings.Contains(errs, "warning: the skill catalog is incomplete") {
		t.Errorf("discover stderr has no warning: %q", errs)
	}
	for _, r := range d.Results {
		if r.SkillID == "project/zz-xlsx-auditor" {
			t.Errorf("a package past the scan limit was ranked")
		}
	}

	out, errs, _ = skillc(t, nil, append([]string{"skills", "list", "--json"}, base...)...)
	var l struct {
		Total     int  `json:"total"`
		Truncated bool `json:"truncated"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	if !l.Truncated || l.Total != 1999 || !strings.Contains(errs, "warning: the skill catalog is incomplete") {
		t.Errorf("list: total %d truncated %v stderr %q", l.Total, l.Truncated, errs)
	}
	// validate reports the cut as a skillmd-scan-limit diagnostic in
	// every format, JSON included
	out, _, _ = skillc(t, nil, append([]string{"skills", "validate", "--format", "json"}, base...)...)
	if !strings.Contains(out, "skillmd-scan-limit") || !strings.Contains(out, "2000 directories") {
		t.Errorf("validate --format json does not report the scan limit:\n%.2000s", out)
	}
	for _, cmd := range [][]string{{"skills", "show", "acme-report-0001"}, {"skills", "load-preview", "acme-report-0001"}} {
		if _, errs, code := skillc(t, nil, append(cmd, base...)...); code != 0 || !strings.Contains(errs, "warning: the skill catalog is incomplete") {
			t.Errorf("%s: exit %d, stderr %q: want a truncation warning", strings.Join(cmd, " "), code, errs)
		}
	}

	// the flag, the environment variable and the configuration file lift
	// the limit
	conf := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(conf, []byte(`{"max_scan_dirs": 6000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
	}{
		{nil, []string{"--max-scan-dirs", "6000"}},
		{map[string]string{envMaxScanDirs: "6000"}, nil},
		{nil, []string{"--gateway-config", conf}},
	} {
		args := append(append([]string{"skills", "discover", "--json"}, base...), tc.args...)
		out, errs, code := skillc(t, tc.env, append(args, "audit", "xlsx", "spreadsheets")...)
		if code != 0 {
			t.Fatalf("discover %v exit %d: %s", tc, code, errs)
		}
		d.Truncated, d.Warnings, d.Results = false, nil, nil
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if d.Truncated || len(d.Warnings) > 0 || strings.Contains(errs, "incomplete") {
			t.Errorf("%v: still truncated: %v %q %q", tc, d.Truncated, d.Warnings, errs)
		}
		if len(d.Results) == 0 || d.Results[0].SkillID != "project/zz-xlsx-auditor" {
			t.Errorf("%v: the auditor is not ranked first: %+v", tc, d.Results)
		}
		os.Unsetenv(envMaxScanDirs)
	}
}

// TestServeScanTruncated starts a real skillc serve whose skill store
// holds more package directories than --max-scan-dirs allows, and checks
// that every surface says so: skills_discover and skills_list answer
// truncated with a warning, skills_instructions carries the note, the
// log warns and /metrics counts the cut root. --catalog-budget, set low,
// still lists every visible skill by name.
func TestServeScanTruncated(t *testing.T) {
	home := t.TempDir()
	for i := range 12 {
		name := fmt.Sprintf("invoice-check-%02d", i)
		writePackage(t, filepath.Join(home, "skills", name), map[string]string{
			"SKILL.md": fmt.Sprintf("---\nname: %s\ndescription: Checks supplier invoices of region %d against purchase orders and flags mismatched totals. Use when accounts payable asks for a review.\n---\n# Invoice check\n\nCompare every line with the purchase order.\n", name, i),
		})
	}
	p := startServe(t, home, []string{"HOME=" + t.TempDir(), "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok", envMaxScanDirs + "=5"}, "--catalog-budget", "700")
	cs := connect(t, p.url, map[string]string{"Authorization": "Bearer tok"})

	var disc struct {
		Truncated bool
		Warnings  []string
		Results   []struct{ Name string }
	}
	callJSON(t, cs, "skills_discover", map[string]any{"intent": "check supplier invoices"}, &disc)
	if !disc.Truncated || len(disc.Warnings) != 1 || !strings.Contains(disc.Warnings[0], "limit of 5 directories") || len(disc.Results) != 4 {
		t.Errorf("skills_discover: truncated %v warnings %q, %d results (want 4: the root counts as one of the 5 directories)", disc.Truncated, disc.Warnings, len(disc.Results))
	}
	var list struct {
		Truncated bool
		Total     int
	}
	callJSON(t, cs, "skills_list", map[string]any{}, &list)
	if !list.Truncated || list.Total != 4 {
		t.Errorf("skills_list: %+v", list)
	}
	var ins struct {
		Instructions string
		Truncated    bool
		Warnings     []string
	}
	callJSON(t, cs, "skills_instructions", nil, &ins)
	if !strings.Contains(ins.Instructions, "the catalog is incomplete") || !ins.Truncated || len(ins.Warnings) != 1 {
		t.Errorf("skills_instructions has no truncation note or flag (truncated %v, warnings %q):\n%s", ins.Truncated, ins.Warnings, ins.Instructions)
	}
	// the MCP Skills extension's skills/list says so too
	h := http.Header{}
	h.Set("Authorization", "Bearer tok")
	sep := sepClient(t, &mcp.StreamableClientTransport{Endpoint: p.url + "/mcp", HTTPClient: &http.Client{Transport: headerTransport{h}}, DisableStandaloneSSE: true})
	sl, err := mcp.CallCustomMethod[*serve.SkillsListParams, *serve.SkillsListResult](context.Background(), sep, serve.MethodSkillsList, &serve.SkillsListParams{})
	if err != nil {
		t.Fatalf("skills/list: %v", err)
	}
	if !sl.Truncated || len(sl.Warnings) != 1 || !strings.Contains(sl.Warnings[0], "limit of 5 directories") || len(sl.Skills) != 4 {
		t.Errorf("skills/list: truncated %v warnings %q, %d skills", sl.Truncated, sl.Warnings, len(sl.Skills))
	}
	for _, r := range disc.Results {
		if !strings.Contains(ins.Instructions, `<skill name="`+r.Name+`"`) {
			t.Errorf("%s missing from <available_skills> at a 700-byte budget:\n%s", r.Name, ins.Instructions)
		}
	}
	req, _ := http.NewRequest("GET", p.url+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "skillc_skills_scan_truncated_roots 1") {
		t.Errorf("/metrics has no truncated root:\n%s", body)
	}
	if err := p.stop(t); err != nil {
		t.Errorf("exit: %v", err)
	}
	if !strings.Contains(p.stderr.String(), "the skill catalog is incomplete") {
		t.Errorf("no warning in the log:\n%s", p.stderr.String())
	}
}

// TestDiscoverIndexCache runs skills discover twice over a real catalog
// with --index-cache: the first run writes the registry and gateway
// caches, the second answers the same from them; an edited package is
// seen on the next run; --index-cache off writes nothing.
func TestDiscoverIndexCache(t *testing.T) {
	project := bigCatalog(t, 50)
	cache := t.TempDir()
	args := []string{"skills", "discover", "--json", "--project", project, "--no-user", "--index-cache", cache}
	first, errs, code := skillc(t, nil, append(args, "spreadsheet", "formulas")...)
	if code != 0 {
		t.Fatalf("discover exit %d: %s", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*"))
	if len(files) != 2 {
		t.Fatalf("cache files %v, want the registry's and the gateway's", files)
	}
	second, _, _ := skillc(t, nil, append(args, "spreadsheet", "formulas")...)
	if second != first || !strings.Contains(first, `"skill_id": "project/zz-xlsx-auditor"`) {
		t.Errorf("the cached run answers differently:\n%s\nvs\n%s", second, first)
	}
	md := filepath.Join(project, ".agents", "skills", "acme-report-0003", "SKILL.md")
	if err := os.WriteFile(md, []byte("---\nname: acme-report-0003\ndescription: Reconciles quarterly ledger balances. Use at quarter close.\n---\n# Ledger\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := skillc(t, nil, append(args, "ledger", "reconciliation")...)
	if !strings.Contains(out, `"skill_id": "project/acme-report-0003"`) {
		t.Errorf("the edited package is not found after the edit:\n%s", out)
	}
	// the default is the user cache directory; "off" writes nothing
	xdg := t.TempDir()
	if _, _, code := skillc(t, map[string]string{envIndexCache: "off", "XDG_CACHE_HOME": xdg}, "skills", "discover", "--project", project, "--no-user", "ledger"); code != 0 {
		t.Fatal("discover with the cache off failed")
	}
	if _, err := os.Stat(filepath.Join(xdg, "skillc")); !os.IsNotExist(err) {
		t.Errorf("--index-cache off wrote a cache: %v", err)
	}
	os.Unsetenv(envIndexCache)
	if _, _, code := skillc(t, map[string]string{"XDG_CACHE_HOME": xdg}, "skills", "discover", "--project", project, "--no-user", "ledger"); code != 0 {
		t.Fatal("discover with the default cache failed")
	}
	if got, _ := filepath.Glob(filepath.Join(xdg, "skillc", "*")); len(got) != 2 {
		t.Errorf("the default cache directory holds %v", got)
	}
}

// TestDiscoverEmbeddings turns on the semantic stage from the gateway
// configuration against a real HTTP server speaking the Ollama and
// OpenAI embeddings protocols (base URL and key from OLLAMA_BASE_URL,
// OPENAI_BASE_URL and OPENAI_API_KEY, as the model connectors take
// them): an intent sharing no word with the right skill finds it; an
// unknown protocol is a usage error naming the key.
func TestDiscoverEmbeddings(t *testing.T) {
	project := t.TempDir()
	root := filepath.Join(project, ".agents", "skills")
	for name, desc := range map[string]string{
		"debugging":   "A root-cause process for bugs and unexpected behaviour.",
		"app-sheets":  "Automates app spreadsheets with scripts.",
		"write-notes": "Turns meeting transcripts into minutes.",
	} {
		writePackage(t, filepath.Join(root, name), map[string]string{"SKILL.md": "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"})
	}
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Input []string }
		json.NewDecoder(r.Body).Decode(&in)
		paths = append(paths, r.URL.Path+" "+r.Header.Get("Authorization"))
		var vs [][]float64
		for _, s := range in.Input {
			v := []float64{0, 0}
			if strings.Contains(s, "crash") || strings.Contains(s, "bugs") || strings.Contains(s, "wonky") {
				v[0] = 1
			}
			vs = append(vs, v)
		}
		if r.URL.Path == "/api/embed" {
			json.NewEncoder(w).Encode(map[string]any{"embeddings": vs})
			return
		}
		var data []map[string]any
		for i, v := range vs {
			data = append(data, map[string]any{"index": i, "embedding": v})
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	defer srv.Close()
	dir := t.TempDir()
	for _, tc := range []struct {
		conf string
		env  map[string]string
		want string
	}{
		{`{"embeddings": {"protocol": "ollama", "model": "nomic-embed-text"}}`, map[string]string{"OLLAMA_BASE_URL": srv.URL}, "/api/embed "},
		{`{"embeddings": {"protocol": "openai", "model": "text-embedding-3-small"}}`, map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "k"}, "/v1/embeddings Bearer k"},
	} {
		conf := filepath.Join(dir, "gateway.json")
		if err := os.WriteFile(conf, []byte(tc.conf), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = nil
		out, errs, code := skillc(t, tc.env, "skills", "discover", "--json", "--project", project, "--no-user", "--index-cache", "off", "--gateway-config", conf, "the app crashes at random")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.conf, code, errs)
		}
		if !strings.Contains(out, `"skill_id": "project/debugging"`) || len(paths) == 0 || paths[0] != tc.want {
			t.Errorf("%s: requests %q, output:\n%s", tc.conf, paths, out)
		}
	}
	conf := filepath.Join(dir, "bad.json")
	os.WriteFile(conf, []byte(`{"embeddings": {"protocol": "grpc", "model": "m"}}`), 0o644)
	if _, errs, code := skillc(t, nil, "skills", "discover", "--project", project, "--no-user", "--gateway-config", conf, "x"); code != exitUsage || !strings.Contains(errs, "embeddings.protocol") {
		t.Errorf("unknown protocol: exit %d, %q", code, errs)
	}
}

// embedFake is an HTTP server speaking the OpenAI-compatible
// /v1/embeddings and Ollama's /api/embed: a text mentioning a crash,
// bugs or something wonky is [1 0], any other [0 1]. It counts the requests and the texts
// embedded.
type embedFake struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string // path and Authorization of each request
	texts    []string // every input embedded, in order
}

func newEmbedFake(t *testing.T) *embedFake {
	t.Helper()
	f := &embedFake{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Input []string }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.requests = append(f.requests, r.URL.Path+" "+r.Header.Get("Authorization"))
		f.texts = append(f.texts, in.Input...)
		f.mu.Unlock()
		var vs [][]float64
		for _, s := range in.Input {
			v := []float64{0, 1}
			if strings.Contains(s, "crash") || strings.Contains(s, "bugs") || strings.Contains(s, "wonky") {
				v = []float64{1, 0}
			}
			vs = append(vs, v)
		}
		if r.URL.Path == "/api/embed" {
			_ = json.NewEncoder(w).Encode(map[string]any{"embeddings": vs})
			return
		}
		var data []map[string]any
		for i, v := range vs {
			data = append(data, map[string]any{"index": i, "embedding": v})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(f.Close)
	return f
}

// seen returns the requests and texts so far and forgets them.
func (f *embedFake) seen() (requests, texts []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	requests, texts = f.requests, f.texts
	f.requests, f.texts = nil, nil
	return requests, texts
}

// TestServeEmbeddings: skillc serve honours the gateway configuration's
// embeddings entry. Two packages both match "app" lexically, the
// spreadsheet one better (its name); the fake embeds only the debugging
// one near the intent, so with the semantic stage on the fused ranking
// puts debugging first — through skills_discover and the gateway's HTTP
// route of a real skillc serve process.
func TestServeEmbeddings(t *testing.T) {
	home := t.TempDir()
	for name, desc := range map[string]string{
		"debugging":   "A root-cause process for app bugs and unexpected behaviour.",
		"app-sheets":  "Automates app spreadsheets with scripts.",
		"write-notes": "Turns meeting transcripts into minutes.",
	} {
		writePackage(t, filepath.Join(home, "skills", name), map[string]string{"SKILL.md": "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"})
	}
	fake := newEmbedFake(t)
	conf := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(conf, []byte(`{"embeddings": {"protocol": "openai", "model": "text-embedding-3-small"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// "wonky" is in no lexicon group or related entry ("crashes" would
	// reach the debugging package lexically through related.txt).
	const intent = "the app acts wonky at random"
	discover := func(extra ...string) []string {
		t.Helper()
		env := []string{"HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir(), "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok", "OPENAI_BASE_URL=" + fake.URL + "/v1", "OPENAI_API_KEY=sk-test"}
		p := startServe(t, home, env, extra...)
		cs := connect(t, p.url, map[string]string{"Authorization": "Bearer tok"})
		var disc struct{ Results []struct{ Name string } }
		callJSON(t, cs, "skills_discover", map[string]any{"intent": intent}, &disc)
		var mcpOrder []string
		for _, r := range disc.Results {
			mcpOrder = append(mcpOrder, r.Name)
		}
		// the gateway's HTTP route ranks the same way
		req, _ := http.NewRequest("POST", p.url+"/gateway/discover", strings.NewReader(`{"intent": "`+intent+`"}`))
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(&disc); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("POST /gateway/discover: %d %v", resp.StatusCode, err)
		}
		var httpOrder []string
		for _, r := range disc.Results {
			httpOrder = append(httpOrder, r.Name)
		}
		if fmt.Sprint(httpOrder) != fmt.Sprint(mcpOrder) {
			t.Errorf("HTTP route ranks %q, skills_discover %q", httpOrder, mcpOrder)
		}
		return mcpOrder
	}
	lexical := discover()
	if reqs, _ := fake.seen(); len(lexical) == 0 || lexical[0] != "app-sheets" || len(reqs) != 0 {
		t.Fatalf("without embeddings: ranking %q (want app-sheets first), %d embedding requests (want 0)", lexical, len(reqs))
	}
	fused := discover("--gateway-config", conf)
	reqs, texts := fake.seen()
	if len(fused) == 0 || fused[0] != "debugging" {
		t.Errorf("with embeddings: ranking %q, want debugging first (lexical %q)", fused, lexical)
	}
	if len(reqs) == 0 || reqs[0] != "/v1/embeddings Bearer sk-test" || !slices.Contains(texts, intent) {
		t.Errorf("embedding requests %q, texts %q", reqs, texts)
	}
	// the catalog was embedded once for both discovers of the process
	if n := strings.Count(strings.Join(texts, "\n"), "debugging: "); n != 1 {
		t.Errorf("debugging embedded %d times, want 1: %q", n, texts)
	}
}

// TestServeEmbeddingsRefused: an embeddings entry serve cannot use stops
// it at start with the field named, instead of serving lexically.
func TestServeEmbeddingsRefused(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(conf, []byte(`{"embeddings": {"protocol": "grpc", "model": "m"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "skillc", "serve", "--port", "0", "--gateway-config", conf)
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil || ctx.Err() != nil || !strings.Contains(string(out), "embeddings.protocol") {
		t.Errorf("serve with an unknown embeddings protocol: %v (timeout %v)\n%s", err, ctx.Err(), out)
	}
}

// TestDiscoverVectorsPersisted: two skillc processes run skills discover
// with the semantic stage over the same catalog; the first embeds every
// skill and the intent, the second only the intent (the skill vectors
// come from the index cache directory), and both rank alike.
func TestDiscoverVectorsPersisted(t *testing.T) {
	project := t.TempDir()
	root := filepath.Join(project, ".agents", "skills")
	for name, desc := range map[string]string{
		"debugging":   "A root-cause process for app bugs and unexpected behaviour.",
		"app-sheets":  "Automates app spreadsheets with scripts.",
		"write-notes": "Turns meeting transcripts into minutes.",
	} {
		writePackage(t, filepath.Join(root, name), map[string]string{"SKILL.md": "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"})
	}
	fake := newEmbedFake(t)
	cache := t.TempDir()
	conf := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(conf, []byte(`{"embeddings": {"protocol": "ollama", "model": "nomic-embed-text"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// "wonky" is in no lexicon group or related entry ("crashes" would
	// reach the debugging package lexically through related.txt).
	const intent = "the app acts wonky at random"
	discover := func() (string, []string, []string) {
		t.Helper()
		cmd := exec.Command("skillc", "skills", "discover", "--json", "--project", project, "--no-user", "--index-cache", cache, "--gateway-config", conf, intent)
		cmd.Env = append(os.Environ(), "OLLAMA_BASE_URL="+fake.URL, "HOME="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("skills discover: %v\n%s", err, stderr.String())
		}
		reqs, texts := fake.seen()
		return string(out), reqs, texts
	}
	out1, reqs1, texts1 := discover()
	if len(texts1) != 4 || len(reqs1) != 2 || !strings.Contains(out1, `"skill_id": "project/debugging"`) {
		t.Fatalf("first process: %d requests embedding %q, output:\n%s", len(reqs1), texts1, out1)
	}
	out2, reqs2, texts2 := discover()
	if len(reqs2) != 1 || len(texts2) != 1 || texts2[0] != intent {
		t.Errorf("second process: %d requests embedding %q, want only the intent", len(reqs2), texts2)
	}
	if out2 != out1 {
		t.Errorf("the second process ranks differently:\n%s\nfirst:\n%s", out2, out1)
	}
	vecs, _ := filepath.Glob(filepath.Join(cache, "gateway-*.vec"))
	if len(vecs) != 1 {
		t.Errorf("vector files in the cache directory: %q", vecs)
	}
}

// TestDiscoverEmbeddingsLocalModel: the embeddings entry names a
// localModels entry of the project's connectors.json, whose type, model,
// base URL and key (an ${ENV} reference) are used; an unknown entry or a
// protocol that contradicts the entry's type is a usage error naming the
// field.
func TestDiscoverEmbeddingsLocalModel(t *testing.T) {
	project := t.TempDir()
	root := filepath.Join(project, ".agents", "skills")
	for name, desc := range map[string]string{
		"debugging":  "A root-cause process for app bugs and unexpected behaviour.",
		"app-sheets": "Automates app spreadsheets with scripts.",
	} {
		writePackage(t, filepath.Join(root, name), map[string]string{"SKILL.md": "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"})
	}
	fake := newEmbedFake(t)
	conns := `{"localModels": {"embed": {"type": "openai", "model": "text-embedding-3-small", "baseUrl": "` + fake.URL + `/v1", "apiKey": "${EMBED_TEST_KEY}"}}}`
	if err := os.WriteFile(filepath.Join(project, "connectors.json"), []byte(conns), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	discover := func(conf string) (string, string, int) {
		t.Helper()
		file := filepath.Join(dir, "gateway.json")
		if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"EMBED_TEST_KEY": "sk-from-entry", "OPENAI_API_KEY": "sk-from-env", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "SKILLSCRIPT_HOME": t.TempDir()}
		return skillc(t, env, "skills", "discover", "--json", "--project", project, "--no-user", "--index-cache", "off", "--gateway-config", file, "the app crashes at random")
	}
	out, errs, code := discover(`{"embeddings": {"local_model": "embed"}}`)
	reqs, _ := fake.seen()
	if code != 0 || len(reqs) == 0 || reqs[0] != "/v1/embeddings Bearer sk-from-entry" {
		t.Fatalf("exit %d, requests %q: %s", code, reqs, errs)
	}
	var resp struct{ Results []struct{ Name string } }
	if err := json.Unmarshal([]byte(out), &resp); err != nil || len(resp.Results) == 0 || resp.Results[0].Name != "debugging" {
		t.Errorf("the semantic stage did not rank debugging first (%v):\n%s", err, out)
	}
	for conf, want := range map[string]string{
		`{"embeddings": {"local_model": "nope"}}`:                        `embeddings.local_model "nope"`,
		`{"embeddings": {"local_model": "embed", "protocol": "ollama"}}`: `embeddings.protocol "ollama" differs`,
	} {
		if _, errs, code := discover(conf); code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, %q (want %q)", conf, code, errs, want)
		}
	}
}
