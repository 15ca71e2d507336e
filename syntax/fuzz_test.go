package syntax

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

// addSeeds seeds f with the testdata files, the own corpus and, when
// present, the shared corpus.
func addSeeds(f *testing.F) {
	for _, p := range append(testdataFiles(f), corpusFiles(f, "")...) {
		f.Add(readFile(f, p))
	}
	if root, ok := testcorpus.SharedIfPresent(f, "corpus"); ok {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
			return nil
		})
	}
	f.Add([]byte(""))
	f.Add([]byte("t:\n\temit(text=\"${X|head:5}\")\n"))
}

// FuzzParse checks that Parse never panics or hangs, that every range
// nests inside its parent's, and that Format copes with any parsed tree.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := Parse("fuzz", src)
		checkRanges(t, file)
		if _, err := Format(file); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzFormat checks, for every input without syntax errors, that
// parse → format → parse gives the same tree, keeps the content, and that
// formatting is idempotent.
func FuzzFormat(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFormat(t, "fuzz", src)
	})
}
