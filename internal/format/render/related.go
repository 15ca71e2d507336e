package render

import (
	"os"

	"github.com/skillscript/skillc/ast"
)

// maxRelatedFile bounds the size of a file read only to place a related
// location in it.
const maxRelatedFile = 8 << 20

// fileLines resolves the line tables of the files that related locations
// point into (ast.Related.File): the source of a result when the file is
// among the results, else the file on disk read once (an empty table when it
// cannot be read, which leaves the location without a line and column).
type fileLines struct {
	results []ast.FileDiagnostics
	byName  map[string]*ast.LineTable
}

func newFileLines(results []ast.FileDiagnostics) *fileLines {
	return &fileLines{results: results}
}

// of returns the line table of file.
func (f *fileLines) of(file string) *ast.LineTable {
	if lt, ok := f.byName[file]; ok {
		return lt
	}
	if f.byName == nil {
		f.byName = map[string]*ast.LineTable{}
	}
	lt := ast.NewLineTable(f.source(file))
	f.byName[file] = lt
	return lt
}

// source returns the text of file, from the results or the disk.
func (f *fileLines) source(file string) []byte {
	for _, r := range f.results {
		if r.File == file && r.Src != nil {
			return r.Src
		}
	}
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxRelatedFile {
		return nil
	}
	src, _ := os.ReadFile(file)
	return src
}

// elsewhere reports whether r lies in another file than file.
func elsewhere(file string, r ast.Related) bool { return r.File != "" && r.File != file }

// relatedPlace returns the file and line table of a related location of a
// diagnostic in file (line table lt).
func (f *fileLines) relatedPlace(file string, lt *ast.LineTable, r ast.Related) (string, *ast.LineTable) {
	if !elsewhere(file, r) {
		return file, lt
	}
	return r.File, f.of(r.File)
}
