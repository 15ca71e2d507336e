package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionStep is one step of action.yml.
type actionStep struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
}

// actionSteps reads the composite Action's steps.
func actionSteps(t *testing.T) map[string]actionStep {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Runs struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	out := map[string]actionStep{}
	for _, s := range a.Runs.Steps {
		out[s.Name] = s
	}
	return out
}

var actionExpr = regexp.MustCompile(`\$\{\{\s*([a-z._-]+)\s*\}\}`)

// runStep runs a step's shell script the way the runner does (bash, the
// step's env with ${{ }} expressions filled from ctx) and returns the exit
// status and the combined output.
func runStep(t *testing.T, s actionStep, ctx map[string]string, extraEnv ...string) (int, string) {
	t.Helper()
	env := append(os.Environ(), extraEnv...)
	for k, v := range s.Env {
		env = append(env, k+"="+actionExpr.ReplaceAllStringFunc(v, func(m string) string {
			return ctx[actionExpr.FindStringSubmatch(m)[1]]
		}))
	}
	cmd := exec.Command("bash", "-e", "-c", s.Run)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// TestActionSteps runs the shell steps of action.yml locally, as the
// GitHub runner would: the install step against a release served on
// loopback (the real archive layout: skillc_OS_ARCH.tar.gz and
// checksums.txt), a tampered archive (refused), a release without the
// archive (built from the Action's source); then the check step on a
// skill with an error (SARIF written, exit-code output 1, the step itself
// succeeds) and the fail step (exits with that code).
func TestActionSteps(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds skillc and runs the Action's bash steps (linux)")
	}
	steps := actionSteps(t)
	install, check, fail := steps["Install skillc"], steps["skillc check"], steps["Fail on findings"]
	if !strings.Contains(install.Run, "install.sh") || check.ID != "check" || fail.Run == "" {
		t.Fatalf("action.yml steps: %+v", steps)
	}
	for _, s := range steps {
		if s.Uses != "" && !regexp.MustCompile(`^(actions/setup-go@v6|github/codeql-action/upload-sarif@v4)$`).MatchString(s.Uses) {
			t.Errorf("step %q uses %s: not the current major version", s.Name, s.Uses)
		}
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "build", "skillc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	asset := fmt.Sprintf("skillc_linux_%s.tar.gz", runtime.GOARCH)
	archive := tarGz(t, bin)
	sum := sha256.Sum256(archive)
	good := hex.EncodeToString(sum[:]) + "  " + asset + "\n"
	bad := strings.Repeat("0", 64) + "  " + asset + "\n"
	var checksums atomic.Value // the served checksums.txt (the handler runs on other goroutines)
	checksums.Store(good)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/download/v9.9.9/" + asset, "/latest/download/" + asset:
			_, _ = w.Write(archive)
		case "/download/v9.9.9/checksums.txt", "/latest/download/checksums.txt":
			_, _ = w.Write([]byte(checksums.Load().(string)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	try := func(t *testing.T, version string) (int, string, string) {
		t.Helper()
		dir := t.TempDir()
		ghPath := filepath.Join(dir, "github_path")
		code, out := runStep(t, install, map[string]string{"inputs.version": version, "github.action_path": repo},
			"SKILLC_RELEASE_URL="+srv.URL, "RUNNER_TEMP="+dir, "GITHUB_PATH="+ghPath)
		p, _ := os.ReadFile(ghPath)
		return code, out, strings.TrimSpace(string(p))
	}
	var installed string
	t.Run("release", func(t *testing.T) {
		for _, v := range []string{"v9.9.9", "latest"} {
			code, out, p := try(t, v)
			if code != 0 || p == "" || !strings.Contains(out, "skillc ") {
				t.Fatalf("%s: exit %d, GITHUB_PATH %q\n%s", v, code, p, out)
			}
			installed = p
		}
	})
	t.Run("tampered", func(t *testing.T) {
		checksums.Store(bad)
		defer checksums.Store(good)
		code, out, p := try(t, "v9.9.9")
		if code == 0 || p != "" || !strings.Contains(out, "checksum mismatch for "+asset) {
			t.Fatalf("tampered archive: exit %d, GITHUB_PATH %q\n%s", code, p, out)
		}
	})
	t.Run("no-release", func(t *testing.T) {
		code, out, p := try(t, "v0.0.1")
		if code != 0 || p == "" || !strings.Contains(out, "building skillc from the Action's source instead") {
			t.Fatalf("fallback: exit %d, GITHUB_PATH %q\n%s", code, p, out)
		}
	})
	if installed == "" {
		t.Fatal("nothing installed")
	}

	// the check step with the installed skillc first on PATH
	ws := t.TempDir()
	writeFile := func(name, text string) {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile("bad.skill.md", "# Skill: bad\n# Vars: NAME=x\nt:\n    emit(text=\"hi ${NAMEE}\")\ndefault: t\n")
	sarif, output := filepath.Join(ws, "skillc.sarif"), filepath.Join(ws, "github_output")
	code, out := runStep(t, check, map[string]string{"inputs.paths": ws, "inputs.args": "", "inputs.sarif-file": sarif},
		"PATH="+installed+":"+os.Getenv("PATH"), "GITHUB_OUTPUT="+output)
	if code != 0 || !strings.Contains(out, "skillc check exited with status 1") {
		t.Fatalf("check step: exit %d\n%s", code, out)
	}
	o, _ := os.ReadFile(output)
	if strings.TrimSpace(string(o)) != "exit-code=1" {
		t.Fatalf("GITHUB_OUTPUT = %q", o)
	}
	var report struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	b, _ := os.ReadFile(sarif)
	if err := json.Unmarshal(b, &report); err != nil || len(report.Runs) != 1 || len(report.Runs[0].Results) == 0 || report.Runs[0].Results[0].RuleID != "undeclared-var" {
		t.Fatalf("SARIF %s: %v", b, err)
	}
	if code, _ := runStep(t, fail, map[string]string{"steps.check.outputs.exit-code": "1"}); code != 1 {
		t.Fatalf("fail step exit %d, want 1", code)
	}
}

// tarGz packs file as the single entry "skillc" of a gzipped tar, as the
// release archives hold it (with LICENSE and README, left out here).
func tarGz(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: "skillc", Mode: 0o755, Size: int64(len(data))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return []byte(buf.String())
}
