package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/eval/value"
	"go.yaml.in/yaml/v3"
)

// ParseInputs builds run inputs from a vars file (a JSON or YAML mapping,
// or KEY=VALUE lines) and then --var KEY=VALUE pairs, which win.
func ParseInputs(pairs []string, varsFile string) (map[string]any, error) {
	in := map[string]any{}
	if varsFile != "" {
		if err := readVarsFile(varsFile, in); err != nil {
			return nil, err
		}
	}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--var %q: want NAME=VALUE", p)
		}
		in[strings.TrimSpace(k)] = v
	}
	return in, nil
}

func readVarsFile(path string, in map[string]any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("vars file: %w", err)
	}
	text := strings.TrimSpace(string(data))
	if strings.HasPrefix(text, "{") || filepath.Ext(path) == ".yaml" || filepath.Ext(path) == ".yml" || filepath.Ext(path) == ".json" {
		var m map[string]any
		if err := yaml.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("vars file %s: %v", path, err)
		}
		for k, v := range m {
			in[k] = value.Normalize(v)
		}
		return nil
	}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("vars file %s:%d: want NAME=VALUE", path, i+1)
		}
		in[strings.TrimSpace(k)] = v
	}
	return nil
}
