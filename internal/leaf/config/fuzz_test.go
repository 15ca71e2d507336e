package config

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// seedFiles adds the JSON or .env sections of the golden cases to f.
func seedFiles(f *testing.F, keep func(name string) bool) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, sec := range ar.Files {
			if keep(sec.Name) {
				f.Add(sec.Data)
			}
		}
	}
}

// FuzzParseConfig checks that any input yields problems, never a panic, and
// that every problem's position lies inside the input.
func FuzzParseConfig(f *testing.F) {
	seedFiles(f, func(n string) bool { return strings.HasSuffix(n, ".json") })
	f.Add([]byte("\xEF\xBB\xBF{\"lint\":{\"severity\":{\"a\":1}}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		env := fakeEnv(map[string]string{"X": "1"})
		cf, ds := parseConfigFile("/p/c.json", data, env, "/home/u")
		problems := flattenFile("/p/c.json", data, ds)
		if cf == nil {
			t.Fatal("nil result")
		}
		for _, p := range problems {
			if p.Offset > len(data) || p.Message == "" || p.File != "/p/c.json" {
				t.Errorf("bad problem %+v for %d bytes", p, len(data))
			}
			if p.Offset >= 0 && p.Line < 1 {
				t.Errorf("problem with offset but no line: %+v", p)
			}
		}
	})
}

// FuzzParseDotenv checks the .env parser: no panic, parsed keys are valid
// names, and reparsing "KEY=value" of a parsed simple value round-trips.
func FuzzParseDotenv(f *testing.F) {
	seedFiles(f, func(n string) bool { return strings.HasSuffix(n, ".env") })
	f.Add([]byte("A=\"x\"\nB='y'\n# c\nexport C=1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		vars, ds := ParseDotenv(data)
		problems := flattenFile(".env", data, ds)
		for _, v := range vars {
			if !validEnvName(v.Key) || v.Line < 1 {
				t.Errorf("bad var %+v", v)
			}
			if strings.ContainsAny(v.Value, "\n\"'") || strings.TrimSpace(v.Value) != v.Value || strings.HasPrefix(v.Value, "#") {
				continue
			}
			again, _ := ParseDotenv([]byte(v.Key + "=" + v.Value))
			if len(again) != 1 || again[0].Value != v.Value {
				t.Errorf("round trip of %+v gave %+v", v, again)
			}
		}
		for _, p := range problems {
			if p.Line < 1 || p.Offset > len(data) {
				t.Errorf("bad problem %+v", p)
			}
		}
	})
}

// BenchmarkParseConfig measures parsing a representative config file.
func BenchmarkParseConfig(b *testing.B) {
	var sev bytes.Buffer
	for i := range 80 {
		if i > 0 {
			sev.WriteString(",")
		}
		sev.WriteString(`"rule-` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `": "warning"`)
	}
	data := []byte(`{"skillsDir": "${HOME}/skills", "shellAllowlist": ["curl", "git", "jq"],
	  "runtime": {"enable_unsafe_shell": false, "max_deadline_seconds": 120},
	  "lint": {"severity": {` + sev.String() + `}, "ignore": ["generated/**"]}}`)
	env := fakeEnv(map[string]string{"HOME": "/home/u"})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, problems := parseConfigFile("/p/c.json", data, env, "/home/u"); len(problems) != 0 {
			b.Fatal(problems)
		}
	}
}

// BenchmarkLoad measures a full Load with discovery over a directory tree.
func BenchmarkLoad(b *testing.B) {
	root := b.TempDir()
	deep := filepath.Join(root, "project", "a", "b", "c")
	writeBench(b, filepath.Join(deep, "x.skill.md"), "# Skill: x\n")
	writeBench(b, filepath.Join(root, "project", ConfigFileName), `{"shellAllowlist": ["curl"]}`)
	writeBench(b, filepath.Join(root, "user", HomeDirName, ".env"), "SKILLSCRIPT_SECURED_MODE=true\n")
	writeBench(b, filepath.Join(root, "user", HomeDirName, ConnectorsFileName), `{}`)
	opts := LoadOptions{StartDir: deep, Home: filepath.Join(root, "user")}
	for b.Loop() {
		if _, problems := Load(opts); len(problems) != 0 {
			b.Fatal(problems)
		}
	}
}
