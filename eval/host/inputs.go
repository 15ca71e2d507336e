package host

import (
	"fmt"
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
		var m map[string]yamlValue
		if err := yaml.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("vars file %s: %v", path, err)
		}
		for k, v := range m {
			in[k] = v.v
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
// order of their keys), no \u escape (YAML does not join surrogate pairs)
// nor \/ (which yaml.v3 refuses), with valid UTF-8 and no repeated
// top-level key (YAML refuses it). Numbers keep their text on both paths
// (-0, 2.50, 1e3). Anything else, valid or not, is left to the YAML
// decoder.
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
	case []any:
		for _, e := range t {
			if !plainJSONValue(e) {
				return false
			}
		}
	}
	return true
}

// yamlValue decodes a YAML value into the value model with numbers as
// written: an integer or float scalar whose text is a decimal numeral
// becomes a float64 or a value.Numeral (02134, 2.50 and 1e3 keep their
// text); one in another YAML spelling (0x1F, 1_000, .inf) keeps its text
// as a string, so nothing prints other than what the file holds.
type yamlValue struct{ v any }

func (y *yamlValue) UnmarshalYAML(n *yaml.Node) error {
	v, err := fromYAML(n)
	y.v = v
	return err
}

func fromYAML(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!int" || n.Tag == "!!float" {
			if v, ok := value.NumberFromTextOK(n.Value); ok {
				return v, nil
			}
			return n.Value, nil
		}
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := fromYAML(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			var k string
			if err := n.Content[i].Decode(&k); err != nil {
				return nil, err
			}
			v, err := fromYAML(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		return value.Normalize(m), nil
	case yaml.AliasNode:
		return fromYAML(n.Alias)
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return value.Normalize(v), nil
}
