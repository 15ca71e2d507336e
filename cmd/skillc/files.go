package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// source is one input file (or stdin, named "-" / "<stdin>").
type source struct {
	Path string // as given or found; "<stdin>" for standard input
	Src  []byte
	Err  error
}

// collectPaths expands the arguments into files: a directory contributes
// every *.skill.md below it (skipping hidden directories and node_modules),
// a file is taken as given, "-" means standard input.
func collectPaths(args []string) ([]string, error) { return collectInputs(args, false) }

// collectInputs is collectPaths; with packages, a directory holding a
// SKILL.md (an Agent Skills package) contributes that file instead, and
// its own files (including *.skill.md resources) are not searched.
func collectInputs(args []string, packages bool) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, "-")
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, errNoFile(err))
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		found, err := walkInputs(a, packages)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// walkInputs lists the inputs below directory a, sorted.
func walkInputs(a string, packages bool) ([]string, error) {
	var found []string
	err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != a && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() && packages {
			if f := packageFile(p); f != "" {
				found = append(found, f)
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".skill.md") {
			found = append(found, p)
		}
		return nil
	})
	sort.Strings(found)
	return found, err
}

func errNoFile(err error) error {
	if os.IsNotExist(err) {
		return fmt.Errorf("no such file or directory")
	}
	return err
}

// maxSourceSize bounds what skillc reads from one file.
const maxSourceSize = 64 << 20

// readSource reads path (or stdin for "-").
func readSource(path string, stdin io.Reader) source {
	if path == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, maxSourceSize+1))
		if err == nil && len(b) > maxSourceSize {
			err = fmt.Errorf("input larger than %d MB", maxSourceSize>>20)
		}
		return source{Path: "<stdin>", Src: b, Err: err}
	}
	st, err := os.Stat(path)
	if err == nil && st.Size() > maxSourceSize {
		return source{Path: path, Err: fmt.Errorf("file larger than %d MB", maxSourceSize>>20)}
	}
	b, err := os.ReadFile(path)
	return source{Path: path, Src: b, Err: err}
}
