package host

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/value"
	"go.yaml.in/yaml/v3"
)

// viaYAML is what readVarsFile's YAML path gives.
func viaYAML(text string) (map[string]any, error) {
	var m map[string]yamlValue
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		return nil, err
	}
	out := map[string]any{}
	for k, v := range m {
		out[k] = value.ToJSON(v.v)
	}
	return out, nil
}

// checkFastPath fails when plainJSONObject accepts text but the YAML
// decoder refuses it or decodes other values.
func checkFastPath(t *testing.T, text string) bool {
	t.Helper()
	o, ok := plainJSONObject(text)
	if !ok {
		return false
	}
	want, err := viaYAML(text)
	if err != nil {
		t.Fatalf("fast path took %q, which YAML refuses: %v", text, err)
	}
	got := map[string]any{}
	for k, v := range o.All() {
		got[k] = value.ToJSON(v)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast path on %q: %v, YAML gives %v", text, got, want)
	}
	return true
}

// TestVarsFileFastPath: the JSON fast path of --vars-file decodes what
// the YAML decoder does, and leaves the cases where they differ to YAML.
func TestVarsFileFastPath(t *testing.T) {
	for _, c := range []struct {
		text string
		fast bool
	}{
		{`{"L": [1, 2.5, -3, 1e3, 12345678901234567890], "S": "a b", "B": true, "N": null}`, true},
		{`{"L": [[1, "x"], [], ["a,b"]]}`, true},
		{`{"A": "tab\there", "Q": "\"quoted\""}`, true},
		{`{"O": {"b": 1, "a": 2}}`, false}, // nested object: key order
		{`{"Z": -0, "P": 2.50}`, true},     // numbers keep their text on both paths
		{`{"E": "\u00e9"}`, false},         // \u escape
		{`{"K": 1, "K": 2}`, false},        // repeated key
		{`{}`, false},
		{`{"K": 1,}`, false}, // not JSON
	} {
		if got := checkFastPath(t, c.text); got != c.fast {
			t.Errorf("fast path on %q = %v, want %v", c.text, got, c.fast)
		}
	}
	// end to end through ParseInputs
	path := filepath.Join(t.TempDir(), "vars.json")
	if err := os.WriteFile(path, []byte(`{"L": [1, 2, 3], "S": "x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := ParseInputs([]string{"S=y"}, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := value.ToJSON(in["L"]) + " " + value.String(in["S"]); got != "[1,2,3] y" {
		t.Fatalf("inputs %s", got)
	}
}

// FuzzVarsFileFastPath: whenever the fast path takes a text, YAML
// accepts it and decodes the same values.
func FuzzVarsFileFastPath(f *testing.F) {
	for _, s := range []string{
		`{"L": [1, 2, 3]}`, `{"a": "b", "c": [true, null, "x"]}`, `{"n": -1.5e-3}`, `{"s": "\\/\\b\\f\\n\\r\\t"}`,
		`{"k": "yes", "m": "~", "o": "null"}`, `{"x": [[[]]]}`, "{\"t\":\t1}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFastPath(t, strings.TrimSpace(s))
	})
}
