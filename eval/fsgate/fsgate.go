package fsgate

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// DefaultMaxRead bounds the bytes file_read returns when Gate.MaxRead is 0.
const DefaultMaxRead = 64 << 20

// maxLinks bounds symlink hops during resolution, as the kernel does.
const maxLinks = 255

// PathNotAllowedError is the refusal of a path outside every allowlisted
// root. Resolved is the physical path that was checked.
type PathNotAllowedError struct {
	Path     string
	Resolved string
}

// Error implements error.
func (e *PathNotAllowedError) Error() string {
	if e.Resolved != "" && e.Resolved != e.Path {
		return fmt.Sprintf("path %q (resolves to %q) is outside the filesystem allowlist", e.Path, e.Resolved)
	}
	return fmt.Sprintf("path %q is outside the filesystem allowlist", e.Path)
}

// EncodingError reports a file_read encoding other than utf8 or base64.
type EncodingError struct {
	Encoding string
}

// Error implements error.
func (e *EncodingError) Error() string {
	return fmt.Sprintf("unknown file encoding %q (want utf8 or base64)", e.Encoding)
}

// Gate checks and performs file operations under a set of roots.
type Gate struct {
	roots   []string // canonical absolute paths
	base    string   // directory relative paths are taken from
	MaxRead int      // bytes; 0 means DefaultMaxRead
}

// New returns a gate over roots. Relative roots and, later, relative paths
// are taken from base (the current directory when base is ""). Roots are
// resolved like any path, so a root reached through a symlink is stored as
// its target. No roots means every path is refused.
func New(base string, roots []string) (*Gate, error) {
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("filesystem allowlist: %w", err)
		}
		base = wd
	}
	g := &Gate{base: base}
	for _, r := range roots {
		if strings.TrimSpace(r) == "" {
			continue
		}
		resolved, err := g.resolve(r)
		if err != nil {
			return nil, fmt.Errorf("filesystem allowlist root %q: %w", r, err)
		}
		g.roots = append(g.roots, resolved)
	}
	return g, nil
}

// Roots returns the canonical roots.
func (g *Gate) Roots() []string {
	if g == nil {
		return nil
	}
	return append([]string(nil), g.roots...)
}

// Check resolves path and returns its physical form if it lies under a
// root, or *PathNotAllowedError.
func (g *Gate) Check(path string) (string, error) {
	if g == nil || len(g.roots) == 0 {
		return "", &PathNotAllowedError{Path: path}
	}
	if path == "" || strings.IndexByte(path, 0) >= 0 {
		return "", &PathNotAllowedError{Path: path}
	}
	resolved, err := g.resolve(path)
	if err != nil {
		return "", err
	}
	for _, root := range g.roots {
		if within(resolved, root) {
			return resolved, nil
		}
	}
	return "", &PathNotAllowedError{Path: path, Resolved: resolved}
}

func within(p, root string) bool {
	if root == string(filepath.Separator) {
		return true
	}
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// Read returns the contents of path: as text for "utf8" (or ""), with
// invalid UTF-8 replaced by U+FFFD, or as one line of standard base64 for
// "base64".
func (g *Gate) Read(path, encoding string) (string, error) {
	if encoding != "" && encoding != "utf8" && encoding != "base64" {
		return "", &EncodingError{Encoding: encoding}
	}
	resolved, err := g.Check(path)
	if err != nil {
		return "", err
	}
	data, err := g.readFile(resolved)
	if err != nil {
		return "", err
	}
	if encoding == "base64" {
		return base64.StdEncoding.EncodeToString(data), nil
	}
	if utf8.Valid(data) {
		return string(data), nil
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), nil
}

func (g *Gate) readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, cleanErr("read", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, cleanErr("read", err)
	}
	if info.IsDir() {
		return nil, fmt.Errorf("read %s: is a directory", path)
	}
	limit := g.MaxRead
	if limit <= 0 {
		limit = DefaultMaxRead
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, cleanErr("read", err)
	}
	if len(data) > limit {
		return nil, fmt.Errorf("read %s: file is larger than %d bytes", path, limit)
	}
	return data, nil
}

// Write stores content at path, creating missing parent directories
// (mkdir -p), and returns the physical path written.
func (g *Gate) Write(path, content string) (string, error) {
	resolved, err := g.Check(path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(resolved), 0o755); err != nil {
		return "", cleanErr("write", err)
	}
	if err := os.WriteFile(resolved, []byte(content), 0o644); err != nil {
		return "", cleanErr("write", err)
	}
	return resolved, nil
}

// cleanErr keeps the OS error text but in the package's lower-case form.
func cleanErr(op string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", op, pe.Path, pe.Err)
	}
	return fmt.Errorf("%s: %w", op, err)
}
