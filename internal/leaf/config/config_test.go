package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// fakeEnv returns a lookup over m.
func fakeEnv(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

func TestParseDotenv(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []DotenvVar
		problems int
	}{
		{"simple", "A=1\nB = two words \n", []DotenvVar{{"A", "1", 1}, {"B", "two words", 2}}, 0},
		{"quotes", "A=\"x y\"\nB='a\\nb'\nC=\"a\\nb\"\n", []DotenvVar{{"A", "x y", 1}, {"B", `a\nb`, 2}, {"C", "a\nb", 3}}, 0},
		{"equals and hash", "URL=https://e.com/p?k=v#frag\n", []DotenvVar{{"URL", "https://e.com/p?k=v#frag", 1}}, 0},
		{"empty value", "A=\nB=\"\"\n", []DotenvVar{{"A", "", 1}, {"B", "", 2}}, 0},
		{"crlf and bom", "\xEF\xBB\xBFA=1\r\nB=2\r\n", []DotenvVar{{"A", "1", 1}, {"B", "2", 2}}, 0},
		{"bad lines", "# c\n\nNOEQ\n=v\nA-B=1\nexport X=1\nQ=\"open\n", nil, 5},
		{"lone quote", "A=\"\n", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ds := ParseDotenv([]byte(tt.in))
			problems := flattenFile(".env", []byte(tt.in), ds)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("vars = %#v, want %#v", got, tt.want)
			}
			if len(problems) != tt.problems {
				t.Errorf("problems = %v, want %d", problems, tt.problems)
			}
			for _, p := range problems {
				if p.Severity != ast.Warning || p.Line == 0 || p.File != ".env" {
					t.Errorf("problem %+v lacks severity, file or line", p)
				}
			}
		})
	}
}

func TestSubstitute(t *testing.T) {
	env := fakeEnv(map[string]string{"A": "1", "EMPTY": ""})
	tests := []struct {
		in, want string
		missing  []string
	}{
		{"x${A}y${A}", "x1y1", nil},
		{"${EMPTY}-", "-", nil},
		{"${B}/${A}", "${B}/1", []string{"B"}},
		{"$A ${ A }", "$A 1", nil},
		{"${}", "${}", []string{""}},
		{"${bad-name}", "${bad-name}", []string{"bad-name"}},
	}
	for _, tt := range tests {
		got, missing := substitute(tt.in, env)
		if got != tt.want || !reflect.DeepEqual(missing, tt.missing) {
			t.Errorf("substitute(%q) = %q, %q; want %q, %q", tt.in, got, missing, tt.want, tt.missing)
		}
	}
}

func TestLintSettings(t *testing.T) {
	l := LintSettings{
		Severity: map[string]ast.Severity{"a": ast.Info, "b": 0},
		Disable:  []string{"c"},
		Ignore:   []string{"generated/**", "*.draft.skill.md", "x/*/y.skill.md", "**/tmp/**"},
		BaseDir:  "/repo",
	}
	sevs := []struct {
		rule string
		want ast.Severity
		on   bool
	}{{"a", ast.Info, true}, {"b", 0, false}, {"c", 0, false}, {"d", ast.Warning, true}}
	for _, s := range sevs {
		got, on := l.RuleSeverity(s.rule, ast.Warning)
		if got != s.want || on != s.on {
			t.Errorf("RuleSeverity(%s) = %v, %v; want %v, %v", s.rule, got, on, s.want, s.on)
		}
	}
	ignored := map[string]bool{
		"/repo/generated/a.skill.md":      true,
		"/repo/generated/deep/a.skill.md": true,
		"/repo/generated":                 true,
		"/repo/skills/a.draft.skill.md":   true,
		"/repo/x/q/y.skill.md":            true,
		"/repo/x/q/r/y.skill.md":          false,
		"/repo/a/tmp/b/c.skill.md":        true,
		"/repo/skills/a.skill.md":         false,
		"/other/generated2/a.skill.md":    false,
		// relative paths are resolved against the current directory (this
		// package's), which is not below /repo
		"./generated/z.skill.md": false,
	}
	for file, want := range ignored {
		if got := l.Ignored(file); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", file, got, want)
		}
	}
	var empty LintSettings
	if got, on := empty.RuleSeverity("x", ast.Error); got != ast.Error || !on || empty.Ignored("a") {
		t.Errorf("zero LintSettings changes behaviour")
	}
}

func TestIndexJSON(t *testing.T) {
	src := `{ "a" : [1, {"b/c": true}],
  "d": {"e~f": "x"} }`
	ix := indexJSON([]byte(src))
	want := map[string]string{
		"":          "{",
		"/a":        "[",
		"/a/0":      "1",
		"/a/1":      "{",
		"/a/1/b~1c": "true",
		"/d/e~0f":   `"x"`,
	}
	for ptr, prefix := range want {
		pos, ok := ix[ptr]
		if !ok || !strings.HasPrefix(src[pos.Value:], prefix) {
			t.Errorf("%q at %d (found %v), want %q", ptr, pos.Value, ok, prefix)
		}
	}
	if pos := ix["/d"]; !strings.HasPrefix(src[pos.Key:], `"d"`) {
		t.Errorf("key of /d at %d", pos.Key)
	}
	if got := displayPath("/a/1/b~1c"); got != "a[1].b/c" {
		t.Errorf("displayPath = %q", got)
	}
}

func TestLoadBadFiles(t *testing.T) {
	root := t.TempDir()
	huge := filepath.Join(root, "huge.json")
	if err := os.WriteFile(huge, []byte(`{"a":"`+strings.Repeat("x", MaxFileSize)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "dir.json")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, config, want string
	}{
		{"huge", huge, "larger than"},
		{"directory", dir, "is a directory"},
		{"missing", filepath.Join(root, "none.json"), "does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, fds := Load(LoadOptions{ConfigPath: tt.config, Home: root})
			problems := flatten(fds)
			if len(problems) != 1 || !strings.Contains(problems[0].Message, tt.want) || problems[0].File != tt.config {
				t.Fatalf("problems = %v, want one about %q", problems, tt.want)
			}
			if cfg.ConfigPath != "" || cfg.SkillsDir != filepath.Join(root, HomeDirName, "skills") {
				t.Errorf("config not reset to defaults: %+v", cfg)
			}
		})
	}
}

func TestLoadUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read any file")
	}
	path := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(path, []byte("{}"), 0o000); err != nil {
		t.Fatal(err)
	}
	_, fds := Load(LoadOptions{ConfigPath: path})
	if problems := flatten(fds); len(problems) != 1 || !strings.Contains(problems[0].Message, "permission denied") {
		t.Errorf("problems = %v", problems)
	}
}

// TestSecretsNotPrinted checks that formatting a Config never shows values
// that came from .env files or the environment lookup.
func TestSecretsNotPrinted(t *testing.T) {
	home := t.TempDir()
	sh := filepath.Join(home, HomeDirName)
	if err := os.MkdirAll(sh, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sh, ".env"), []byte("SKILLSCRIPT_SECRET_TOKEN=hunter2-dotenv\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, problems := Load(LoadOptions{Home: home, Env: fakeEnv(map[string]string{"SKILLSCRIPT_SECRET_OTHER": "hunter2-env"})})
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	if v, ok := cfg.Secret("TOKEN"); !ok || v != "hunter2-dotenv" {
		t.Errorf("Secret(TOKEN) = %q, %v", v, ok)
	}
	if v, ok := cfg.Secret("OTHER"); !ok || v != "hunter2-env" {
		t.Errorf("Secret(OTHER) = %q, %v", v, ok)
	}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(format, cfg); strings.Contains(out, "hunter2") {
			t.Errorf("%s of Config shows a secret: %s", format, out)
		}
	}
}

func TestEnviron(t *testing.T) {
	home := t.TempDir()
	sh := filepath.Join(home, HomeDirName)
	if err := os.MkdirAll(sh, 0o755); err != nil {
		t.Fatal(err)
	}
	dotenv := "PROXY=from-dotenv\nB=dotenv\nSKILLSCRIPT_SECRET_X=s\n"
	if err := os.WriteFile(filepath.Join(sh, ".env"), []byte(dotenv), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _ := Load(LoadOptions{Home: home})
	got := cfg.Environ([]string{"PATH=/bin", "B=real", "SKILLSCRIPT_SECRET_Y=t"})
	want := []string{"PATH=/bin", "B=real", "PROXY=from-dotenv"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Environ = %q, want %q", got, want)
	}
	if v, ok := cfg.Getenv("SKILLSCRIPT_HOME"); !ok || v != sh {
		t.Errorf("Getenv(SKILLSCRIPT_HOME) = %q, %v", v, ok)
	}
}

func TestLoadNilEnvAndEmptyOptions(t *testing.T) {
	cfg, problems := Load(LoadOptions{})
	if len(problems) != 0 || cfg.Home != "" || cfg.Port != DefaultPort || cfg.ShellAllowlist != nil {
		t.Errorf("Load(zero) = %+v, %v", cfg, problems)
	}
	if _, ok := cfg.Getenv("PATH"); ok {
		t.Errorf("zero options leak the process environment")
	}
	var zero Config
	if _, ok := zero.Secret("X"); ok {
		t.Errorf("zero Config has a secret")
	}
}

func TestValidateFile(t *testing.T) {
	tests := []struct {
		src  string
		want []string // "line:col severity" of each problem
	}{
		{`{}`, nil},
		{``, []string{"1:1 error"}},
		{`{"a":}`, []string{"1:6 error"}},
		{"{\n  \"skillsDir\": \"${X}\"\n}", []string{"2:16 error"}},
		{`{"lint": {"severity": {"r": "loud"}}}`, []string{"1:29 error"}},
		{`{"lint": []}`, []string{"1:10 error"}},
		{`{"_note": 1, "$schema": "x"}`, nil},
		{"\"\xff\"", []string{"1:1 error"}},
	}
	for _, tt := range tests {
		problems := flattenFile("c.json", []byte(tt.src), ValidateFile("c.json", []byte(tt.src), nil))
		var got []string
		for _, p := range problems {
			got = append(got, fmt.Sprintf("%d:%d %s", p.Line, p.Column, p.Severity))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ValidateFile(%q) = %v (%v), want %v", tt.src, got, problems, tt.want)
		}
	}
}
