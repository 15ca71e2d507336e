package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/serve"
)

// TestServeVectorsPersisted restarts a real skillc serve with the
// semantic stage on against the HTTP embeddings fake that counts what it
// embeds: the first process embeds the catalog and the intent and writes
// the vector file in the default index cache directory
// ($XDG_CACHE_HOME/skillc); the restarted one embeds only the intent and
// ranks the same; after an edit only the edited skill is embedded again;
// skills discover in the same project reuses the file serve wrote;
// SKILLSCRIPT_SKILLS_INDEX_CACHE moves the file, --index-cache off keeps
// the vectors in memory (everything embedded again, nothing written).
// /metrics says whether vectors are persisted.
func TestServeVectorsPersisted(t *testing.T) {
	home, project, userHome, xdg := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	pkgs := map[string]string{
		"debugging":   "A root-cause process for app bugs and unexpected behaviour.",
		"app-sheets":  "Automates app spreadsheets with scripts.",
		"write-notes": "Turns meeting transcripts into minutes.",
	}
	writeAll := func() {
		for name, desc := range pkgs {
			writePackage(t, filepath.Join(home, "skills", name), map[string]string{"SKILL.md": "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"})
		}
	}
	writeAll()
	fake := newEmbedFake(t)
	conf := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(conf, []byte(`{"embeddings": {"protocol": "openai", "model": "text-embedding-3-small"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const intent = "the app crashes at random"
	baseEnv := []string{"HOME=" + userHome, "XDG_CACHE_HOME=" + xdg, "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN=tok",
		"OPENAI_BASE_URL=" + fake.URL + "/v1", "OPENAI_API_KEY=sk-test"}
	// one serve process: discover once, read /metrics, stop
	discover := func(env []string, args ...string) (order, texts []string, metrics string) {
		t.Helper()
		p := startServeIn(t, project, home, append(slices.Clone(baseEnv), env...), append([]string{"--gateway-config", conf}, args...)...)
		cs := connect(t, p.url, map[string]string{"Authorization": "Bearer tok"})
		var disc struct{ Results []struct{ Name string } }
		callJSON(t, cs, "skills_discover", map[string]any{"intent": intent}, &disc)
		for _, r := range disc.Results {
			order = append(order, r.Name)
		}
		req, _ := http.NewRequest("GET", p.url+"/metrics", nil)
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err := p.stop(t); err != nil {
			t.Errorf("serve exit: %v\n%s", err, p.stderr.String())
		}
		_, texts = fake.seen()
		return order, texts, string(body)
	}
	vecFiles := func(dir string) []string {
		fs, _ := filepath.Glob(filepath.Join(dir, "gateway-*.vec"))
		return fs
	}

	first, texts, metrics := discover(nil)
	if len(first) == 0 || first[0] != "debugging" || len(texts) != 4 {
		t.Fatalf("first process: ranking %q (want debugging first), embedded %q (want the 3 skills and the intent)", first, texts)
	}
	if !strings.Contains(metrics, "skillc_gateway_vectors_persisted 1") {
		t.Errorf("/metrics does not say vectors are persisted")
	}
	if fs := vecFiles(filepath.Join(xdg, "skillc")); len(fs) != 1 {
		t.Fatalf("vector files in the default cache directory: %q", fs)
	}

	again, texts, _ := discover(nil)
	if len(texts) != 1 || texts[0] != intent {
		t.Errorf("restarted process embedded %q, want only the intent", texts)
	}
	if !slices.Equal(again, first) {
		t.Errorf("restarted process ranks %q, first %q", again, first)
	}

	pkgs["app-sheets"] = "Automates app spreadsheets with scripts and macros."
	writeAll()
	_, texts, _ = discover(nil)
	slices.Sort(texts) // the intent and the edited skill, in either order
	if len(texts) != 2 || !strings.HasPrefix(texts[0], "app-sheets: ") || texts[1] != intent {
		t.Errorf("after editing app-sheets the restarted process embedded %q, want app-sheets and the intent", texts)
	}

	// skills discover in the same project, same roots: the file serve wrote
	cmd := exec.Command("skillc", "skills", "discover", "--json", "--gateway-config", conf, intent)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), append(baseEnv, "SKILLSCRIPT_HOME="+home)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("skills discover: %v\n%s", err, stderr.String())
	}
	if _, texts := fake.seen(); len(texts) != 1 || texts[0] != intent || !strings.Contains(string(out), `"skill_id": "store/debugging"`) {
		t.Errorf("skills discover after serve embedded %q (want only the intent); output:\n%s", texts, out)
	}

	// the environment moves the directory: a new file, everything embedded
	envDir := t.TempDir()
	_, texts, _ = discover([]string{serve.EnvSkillsIndexCache + "=" + envDir})
	if len(texts) != 4 || len(vecFiles(envDir)) != 1 {
		t.Errorf("%s: embedded %q, vector files %q", serve.EnvSkillsIndexCache, texts, vecFiles(envDir))
	}
	// the flag wins over the environment; off persists nothing
	offDir := t.TempDir()
	_, texts, metrics = discover([]string{serve.EnvSkillsIndexCache + "=" + offDir}, "--index-cache", "off")
	if len(texts) != 4 || len(vecFiles(offDir)) != 0 || !strings.Contains(metrics, "skillc_gateway_vectors_persisted 0") {
		t.Errorf("--index-cache off: embedded %q, vector files %q, metrics say persisted", texts, vecFiles(offDir))
	}
}
