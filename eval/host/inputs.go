package host

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

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
		if o, ok := plainJSONObject(text); ok {
			for k, v := range o.All() {
				in[k] = v
			}
			return nil
		}
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

// plainJSONObject decodes text with value.FromJSON when that is sure to
// give what the YAML decoder gives, which is much slower on large files:
// a JSON object whose values hold no objects (YAML maps lose the source
// order of their keys), no negative zero (YAML reads -0 as the integer
// 0), no \u escape (YAML does not join surrogate pairs) nor \/ (which
// yaml.v3 refuses), with valid UTF-8
// and no repeated top-level key (YAML refuses it). Anything else, valid
// or not, is left to the YAML decoder.
func plainJSONObject(text string) (*value.Object, bool) {
	if !strings.HasPrefix(text, "{") || strings.Contains(text, `\u`) || strings.Contains(text, `\/`) || !utf8.ValidString(text) {
		return nil, false
	}
	v, err := value.FromJSON(text)
	if err != nil {
		return nil, false
	}
	o, ok := v.(*value.Object)
	if !ok || o.Len() != value.CountMembers(text[1:]) {
		return nil, false
	}
	for _, e := range o.All() {
		if !plainJSONValue(e) {
			return nil, false
		}
	}
	return o, true
}

func plainJSONValue(v any) bool {
	switch t := v.(type) {
	case *value.Object:
		return false
	case float64:
		return t != 0 || !math.Signbit(t)
	case []any:
		for _, e := range t {
			if !plainJSONValue(e) {
				return false
			}
		}
	}
	return true
}
