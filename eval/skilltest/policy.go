package skilltest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// TestPolicy is a skill's test-only policy file, <name>.test-policy.yaml
// next to <name>.skill.md: the shell binaries and filesystem roots its
// test cases need, on top of the operator's allowlists and the command
// line. Only skillc test reads it; skillc run and skillc serve never do,
// so a test policy cannot widen what a skill may do in production.
//
//	# greet.test-policy.yaml
//	allow_shell: [date, jq]
//	allow_fs: [fixtures]     # relative to this file's directory
//	unsafe_shell: false
type TestPolicy struct {
	Path        string   `yaml:"-"`
	AllowShell  []string `yaml:"allow_shell"`
	AllowFS     []string `yaml:"allow_fs"`
	UnsafeShell bool     `yaml:"unsafe_shell"`
}

// SidecarTestPolicy returns the test policy file next to the skill file
// at path (<name>.test-policy.yaml or .yml), or "".
func SidecarTestPolicy(path string) string {
	base := strings.TrimSuffix(path, ".skill.md")
	if base == path {
		base = strings.TrimSuffix(path, filepath.Ext(path))
	}
	for _, ext := range []string{".test-policy.yaml", ".test-policy.yml"} {
		if st, err := os.Stat(base + ext); err == nil && st.Mode().IsRegular() {
			return base + ext
		}
	}
	return ""
}

// LoadTestPolicy reads and validates a test policy file. Unknown keys,
// empty entries and a second document are errors, reported with their
// line; relative allow_fs roots are made absolute against the file's
// directory.
func LoadTestPolicy(path string) (*TestPolicy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("test policy: %w", err)
	}
	return ParseTestPolicy(path, data)
}

// ParseTestPolicy decodes the test policy file named path.
func ParseTestPolicy(path string, data []byte) (*TestPolicy, error) {
	p := &TestPolicy{Path: path}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil && !errors.Is(err, io.EOF) {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		var te *yaml.TypeError
		if errors.As(err, &te) {
			msg = strings.ReplaceAll(strings.Join(te.Errors, "; "), " in type skilltest.TestPolicy", "")
		}
		return nil, fmt.Errorf("%s: %s", path, msg)
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: one YAML document expected", path)
	}
	for _, b := range p.AllowShell {
		if strings.TrimSpace(b) == "" || strings.ContainsAny(b, " \t") {
			return nil, fmt.Errorf("%s: allow_shell: %q is not a binary name", path, b)
		}
	}
	dir := filepath.Dir(path)
	for i, root := range p.AllowFS {
		if strings.TrimSpace(root) == "" {
			return nil, fmt.Errorf("%s: allow_fs: empty root", path)
		}
		if !filepath.IsAbs(root) {
			abs, err := filepath.Abs(filepath.Join(dir, root))
			if err != nil {
				return nil, err
			}
			p.AllowFS[i] = abs
		}
	}
	return p, nil
}
