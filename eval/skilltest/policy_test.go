package skilltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTestPolicy(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "greet.skill.md")
	if got := SidecarTestPolicy(skill); got != "" {
		t.Fatalf("SidecarTestPolicy without a file = %q", got)
	}
	path := filepath.Join(dir, "greet.test-policy.yaml")
	if err := os.WriteFile(path, []byte("allow_shell: [date, jq]\nallow_fs: [fixtures, /tmp]\nunsafe_shell: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := SidecarTestPolicy(skill); got != path {
		t.Fatalf("SidecarTestPolicy = %q, want %q", got, path)
	}
	p, err := LoadTestPolicy(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.AllowShell, ",") != "date,jq" || !p.UnsafeShell {
		t.Errorf("policy = %+v", p)
	}
	if want := filepath.Join(dir, "fixtures"); p.AllowFS[0] != want || p.AllowFS[1] != "/tmp" {
		t.Errorf("allow_fs = %v, want [%s /tmp]", p.AllowFS, want)
	}
}

func TestTestPolicyErrors(t *testing.T) {
	for src, want := range map[string]string{
		"allow_shel: [date]\n":         "line 1: field allow_shel not found",
		"allow_shell: date\n":          "line 1: cannot unmarshal",
		"allow_shell: [\"rm -rf\"]\n":  "is not a binary name",
		"allow_fs: [\"\"]\n":           "empty root",
		"a: [\n":                       "p.test-policy.yaml",
		"allow_shell: []\n---\nx: 1\n": "one YAML document expected",
	} {
		_, err := ParseTestPolicy("p.test-policy.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTestPolicy(%q) = %v, want an error containing %q", src, err, want)
		}
	}
	if p, err := ParseTestPolicy("p.test-policy.yaml", nil); err != nil || len(p.AllowShell) != 0 {
		t.Errorf("an empty policy: %+v, %v", p, err)
	}
}

// FuzzParseTestPolicy: any input gives a policy or an error, never a panic.
func FuzzParseTestPolicy(f *testing.F) {
	f.Add([]byte("allow_shell: [date]\nallow_fs: [fixtures]\nunsafe_shell: false\n"))
	f.Add([]byte("allow_shell: [\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseTestPolicy("fuzz.test-policy.yaml", data)
	})
}
