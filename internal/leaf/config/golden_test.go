package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/ast"
)

var update = flag.Bool("update", false, "rewrite the golden outputs in testdata/config")

// goldenDir holds the txtar cases of Load.
const goldenDir = "../../../testdata/config"

// TestLoadGolden runs Load on every case in testdata/config. A case is a
// txtar archive whose "fs/..." files are written under a temporary root
// ($ROOT), with optional sections:
//
//	env      KEY=value lines: the real environment
//	opts     home=, start=, config=, connectors= (paths relative to $ROOT;
//	         default home=user, start=project)
//	secrets  names to look up with Config.Secret
//	want     the dump of the result (rewritten with -update)
func TestLoadGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in %s: %v", goldenDir, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := runCase(t, ar)
			checkGolden(t, file, ar, got)
		})
	}
}

// runCase materializes the archive and returns the dump of Load's result.
func runCase(t *testing.T, ar *txtar.Archive) string {
	root := t.TempDir()
	sections := map[string]string{}
	for _, f := range ar.Files {
		name, isFS := strings.CutPrefix(f.Name, "fs/")
		if !isFS {
			sections[f.Name] = string(f.Data)
			continue
		}
		writeFile(t, filepath.Join(root, name), strings.ReplaceAll(string(f.Data), "$ROOT", root))
	}
	env := keyValues(strings.ReplaceAll(sections["env"], "$ROOT", root))
	opt := keyValues(sections["opts"])
	opts := LoadOptions{
		Home:     rootPath(root, valueOr(opt, "home", "user")),
		StartDir: rootPath(root, valueOr(opt, "start", "project")),
		Env: func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		},
		ConfigPath:     rootPath(root, opt["config"]),
		ConnectorsPath: rootPath(root, opt["connectors"]),
	}
	cfg, problems := Load(opts)
	return strings.ReplaceAll(dump(cfg, problems, strings.Fields(sections["secrets"])), root, "$ROOT")
}

// checkGolden compares got with the want section, or rewrites it.
func checkGolden(t *testing.T, file string, ar *txtar.Archive, got string) {
	for i, f := range ar.Files {
		if f.Name != "want" {
			continue
		}
		if *update {
			ar.Files[i].Data = []byte(got)
			if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		if diff := cmp.Diff(string(f.Data), got); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
		return
	}
	if !*update {
		t.Fatalf("no want section (run with -update)")
	}
	ar.Files = append(ar.Files, txtar.File{Name: "want", Data: []byte(got)})
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeFile creates path with its parent directories.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// keyValues parses KEY=value lines.
func keyValues(s string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			m[strings.TrimSpace(k)] = v
		}
	}
	return m
}

// valueOr returns m[k], or def when k is absent.
func valueOr(m map[string]string, k, def string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return def
}

// rootPath joins a case-relative path to root; "" stays "".
func rootPath(root, rel string) string {
	if rel == "" {
		return ""
	}
	return filepath.Join(root, rel)
}

// dump formats a loaded configuration deterministically.
func dump(c *Config, problems []ast.FileDiagnostics, secrets []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "home: %s\n", c.Home)
	fmt.Fprintf(&b, "config: %s\n", c.ConfigPath)
	fmt.Fprintf(&b, "connectors: %s (%d bytes)\n", c.ConnectorsPath, len(c.Connectors))
	fmt.Fprintf(&b, "env files: %s\n", strings.Join(c.EnvFiles, ", "))
	values := map[string]any{
		"skills_dir": c.SkillsDir, "skills_db": c.SkillsDBPath, "trace_dir": c.TraceDir, "data_db": c.DataDBPath,
		"triggers_file": c.TriggersPath, "shell_allowlist": fmt.Sprintf("%q", c.ShellAllowlist),
		"enable_unsafe_shell": c.EnableUnsafeShell, "fs_allowlist": fmt.Sprintf("%q", c.FSAllowlist),
		"secured_mode": c.SecuredMode, "force_always_draft": c.ForceAlwaysDraft, "max_deadline": c.MaxDeadline,
		"max_recursion_depth": c.MaxRecursionDepth, "max_value_bytes": c.MaxValueBytes, "max_ops": c.MaxOps, "max_memory_bytes": c.MaxMemoryBytes, "absolute_timeout": c.AbsoluteTimeout, "host": c.Host, "port": c.Port,
		"identity_header": c.IdentityHeader, "poll_interval": c.PollInterval,
	}
	for _, s := range settingsTable() {
		fmt.Fprintf(&b, "%s: %v  <- %s\n", s.name, values[s.name], c.Origins[s.name])
	}
	dumpLint(&b, c.Lint)
	for _, name := range secrets {
		_, ok := c.Secret(name)
		fmt.Fprintf(&b, "secret %s: %v\n", name, map[bool]string{true: "set", false: "unset"}[ok])
	}
	b.WriteString("problems:\n")
	for _, p := range Format(problems) {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	return b.String()
}

// dumpLint formats lint settings.
func dumpLint(b *strings.Builder, l LintSettings) {
	var sev []string
	for rule, s := range l.Severity {
		name := s.String()
		if s == 0 {
			name = "off"
		}
		sev = append(sev, rule+"="+name)
	}
	sort.Strings(sev)
	fmt.Fprintf(b, "lint: severity=%v disable=%q ignore=%q base=%s\n", sev, l.Disable, l.Ignore, l.BaseDir)
}

// writeBench creates path with its parent directories for a benchmark.
func writeBench(b *testing.B, path, data string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		b.Fatal(err)
	}
}
