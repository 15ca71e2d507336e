// Package baseline records the findings of a corpus so that later checks
// report only new ones (skillc check --baseline / --write-baseline).
//
// A finding is identified by its file (slash-separated, relative to the
// directory of the baseline file), its rule, its enclosing target and its
// normalized message, never by its line or column, so edits elsewhere in a
// file do not resurrect old findings. The file is JSON:
//
//	{
//	  "version": 1,
//	  "findings": [
//	    {"file": "skills/a.skill.md", "rule": "undeclared-var",
//	     "target": "main", "message": "undeclared variable NAMEE", "count": 1}
//	  ]
//	}
//
// count is how many findings share the key: when a file has more of them
// than recorded, the surplus (the last ones in source order) is new.
package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/skillscript/skillc/ast"
)

// Version is the format version written and accepted.
const Version = 1

// Finding is one entry of a baseline file.
type Finding struct {
	File    string `json:"file"`
	Rule    string `json:"rule"`
	Target  string `json:"target,omitempty"`
	Message string `json:"message"`
	Count   int    `json:"count"`
}

// File is the content of a baseline file.
type File struct {
	Version  int       `json:"version"`
	Findings []Finding `json:"findings"`
}

type key struct{ file, rule, target, message string }

// Baseline is a loaded baseline, relative to Dir.
type Baseline struct {
	Dir    string // directory of the baseline file; finding paths are relative to it
	counts map[key]int
}

// Normalize returns the message text used as part of a finding's key:
// every run of digits becomes "#" (line numbers, counts and columns quoted
// in messages change as files are edited) and whitespace is collapsed.
func Normalize(msg string) string {
	var b strings.Builder
	b.Grow(len(msg))
	space, digit := false, false
	for _, r := range strings.TrimSpace(msg) {
		switch {
		case r >= '0' && r <= '9':
			if !digit {
				b.WriteByte('#')
			}
			space, digit = false, true
			continue
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space, digit = true, false
			continue
		}
		b.WriteRune(r)
		space, digit = false, false
	}
	return b.String()
}

// relFile is file relative to dir, slash-separated; files outside dir
// (or standard input) keep their name.
func relFile(dir, file string) string {
	abs, err := filepath.Abs(file)
	if err == nil && dir != "" {
		if r, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(file)
}

func keyOf(rel string, d *ast.Diagnostic) key {
	return key{rel, d.Rule, d.Target, Normalize(d.Message)}
}

// Build makes the baseline of results for a file written in dir.
func Build(dir string, results []ast.FileDiagnostics) File {
	counts := map[key]int{}
	for _, r := range results {
		rel := relFile(dir, r.File)
		for _, d := range r.Diags {
			if d != nil {
				counts[keyOf(rel, d)]++
			}
		}
	}
	f := File{Version: Version, Findings: []Finding{}}
	for k, n := range counts {
		f.Findings = append(f.Findings, Finding{File: k.file, Rule: k.rule, Target: k.target, Message: k.message, Count: n})
	}
	sort.Slice(f.Findings, func(i, j int) bool {
		a, b := f.Findings[i], f.Findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		return a.Message < b.Message
	})
	return f
}

// Write writes the baseline of results to path.
func Write(path string, results []ast.FileDiagnostics) (int, error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return 0, err
	}
	f := Build(dir, results)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return 0, err
	}
	n := 0
	for _, x := range f.Findings {
		n += x.Count
	}
	return n, os.WriteFile(path, b.Bytes(), 0o644)
}

// Load reads a baseline file.
func Load(path string) (*Baseline, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse decodes the baseline file named path.
func Parse(path string, data []byte) (*Baseline, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a baseline file: %v", path, err)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d, want %d", path, f.Version, Version)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	bl := &Baseline{Dir: dir, counts: map[key]int{}}
	for i, x := range f.Findings {
		if x.File == "" || x.Message == "" || x.Count < 1 {
			return nil, fmt.Errorf("%s: finding %d: file, message and a positive count are required", path, i+1)
		}
		bl.counts[key{x.File, x.Rule, x.Target, Normalize(x.Message)}] += x.Count
	}
	return bl, nil
}

// Filter removes the findings the baseline records from results and
// returns how many it removed. Diagnostics are consumed in order, so
// when a key occurs more often than recorded the later ones remain.
func (bl *Baseline) Filter(results []ast.FileDiagnostics) int {
	left := make(map[key]int, len(bl.counts))
	for k, n := range bl.counts {
		left[k] = n
	}
	hidden := 0
	for i, r := range results {
		var kept ast.Diagnostics
		rel := relFile(bl.Dir, r.File)
		for _, d := range r.Diags {
			if d == nil {
				continue
			}
			k := keyOf(rel, d)
			if left[k] > 0 {
				left[k]--
				hidden++
				continue
			}
			kept = append(kept, d)
		}
		results[i].Diags = kept
	}
	return hidden
}
