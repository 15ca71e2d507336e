package mock

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics and that a file it accepts has
// a response for every entry.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "eval", "mock", "*"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		for _, e := range m.entries {
			if e.op == "" || len(e.responses) == 0 {
				t.Fatalf("accepted an entry without op or response: %+v", e)
			}
		}
	})
}
