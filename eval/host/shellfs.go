package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/eval/fsgate"
)

// ShellUnderFSError refuses a runner whose shell allowlist admits a binary
// that the filesystem allowlist lets a skill rewrite: a skill could
// file_write a new program over it (or in front of it on PATH) and then
// run it, turning "may run this binary" into "may run anything" (issue 13
// item 10).
type ShellUnderFSError struct {
	Entry string // the shell allowlist entry
	Path  string // the writable path it resolves to or could be shadowed at
	Root  string // the filesystem root that makes Path writable
}

// Error implements error.
func (e *ShellUnderFSError) Error() string {
	return fmt.Sprintf("shell allowlist entry %q: %s lies inside the writable filesystem root %s, so a skill could rewrite the program and then run it; move the program out of the filesystem allowlist or narrow the allowlist", e.Entry, e.Path, e.Root)
}

// checkShellUnderFS returns a *ShellUnderFSError for the first allowlisted
// binary that a skill could replace through the filesystem gate: an
// absolute entry inside a root, or a bare name whose PATH lookup passes
// through a directory inside a root before it finds the program.
func checkShellUnderFS(gate *fsgate.Gate, allow []string, pathEnv string) error {
	if gate == nil || len(gate.Roots()) == 0 {
		return nil
	}
	for _, e := range allow {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
		case filepath.IsAbs(e):
			if err := underRoot(gate, e, e); err != nil {
				return err
			}
		case !strings.ContainsRune(e, '/'):
			if err := bareUnderRoot(gate, e, pathEnv); err != nil {
				return err
			}
		}
	}
	return nil
}

// bareUnderRoot walks PATH the way the lookup does, up to the directory
// that holds the program.
func bareUnderRoot(gate *fsgate.Gate, name, pathEnv string) error {
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // exec.LookPath refuses relative PATH results
		}
		p := filepath.Join(dir, name)
		if err := underRoot(gate, name, p); err != nil {
			return err
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return nil // found: later directories are never consulted
		}
	}
	return nil
}

// underRoot reports p (and, when it exists, its symlink target) when the
// gate would let a skill write it.
func underRoot(gate *fsgate.Gate, entry, p string) error {
	cands := []string{p}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
		cands = append(cands, real)
	}
	for _, c := range cands {
		if _, err := gate.Check(c); err == nil {
			return &ShellUnderFSError{Entry: entry, Path: c, Root: rootOf(gate, c)}
		}
	}
	return nil
}

// rootOf names the gate root holding p (for the message).
func rootOf(gate *fsgate.Gate, p string) string {
	real := p
	if r, err := filepath.EvalSymlinks(p); err == nil {
		real = r
	}
	for _, r := range gate.Roots() {
		if rel, err := filepath.Rel(r, real); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return r
		}
	}
	return "(a filesystem root)"
}
