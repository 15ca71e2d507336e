package value

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func addSeeds(f *testing.F, pattern string) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "eval", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds for %s: %v", pattern, err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
}

// plain converts the value model into what encoding/json decodes to.
func plain(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case *Object:
		m := map[string]any{}
		for k, e := range x.All() {
			m[k] = plain(e)
		}
		return m
	case Numeral:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	}
	return v
}

// FuzzFromJSON checks that FromJSON agrees with encoding/json on validity
// and on the decoded value, and that ToJSON re-encodes to equal text.
func FuzzFromJSON(f *testing.F) {
	addSeeds(f, "json/*.json")
	f.Fuzz(func(t *testing.T, s string) {
		ours, err := FromJSON(s)
		var theirs any
		stdErr := json.Unmarshal([]byte(s), &theirs)
		if (err == nil) != (stdErr == nil) {
			t.Fatalf("validity disagrees on %q: ours %v, encoding/json %v", s, err, stdErr)
		}
		if err != nil {
			return
		}
		if list, ok := ours.([]any); ok && len(list) > 0 {
			// the count that sized the list is exact for valid text
			if n := countElems(strings.TrimLeft(s, " \t\r\n")[1:]); n != len(list) {
				t.Fatalf("countElems says %d elements, decoded %d, in %q", n, len(list), s)
			}
		}
		if !reflect.DeepEqual(plain(ours), theirs) {
			t.Fatalf("value disagrees on %q: %#v vs %#v", s, plain(ours), theirs)
		}
		text := ToJSON(ours)
		again, err := FromJSON(text)
		if err != nil {
			t.Fatalf("ToJSON output %q does not parse: %v", text, err)
		}
		if ToJSON(again) != text {
			t.Fatalf("ToJSON not stable: %q then %q", text, ToJSON(again))
		}
	})
}
