package fsgate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// resolve returns the physical absolute form of path (see the package doc):
// symlinks followed component by component, ".." taken physically, missing
// components kept as written.
func (g *Gate) resolve(path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = g.base + string(filepath.Separator) + path
	}
	pending := splitPath(path)
	resolved := string(filepath.Separator)
	hops := 0
	for len(pending) > 0 {
		comp := pending[0]
		pending = pending[1:]
		switch comp {
		case ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, comp)
		target, isLink, err := readLink(next)
		if err != nil {
			return "", err
		}
		if !isLink {
			resolved = next
			continue
		}
		if hops++; hops > maxLinks {
			return "", fmt.Errorf("resolve %s: too many levels of symbolic links", path)
		}
		if filepath.IsAbs(target) {
			resolved = string(filepath.Separator)
		}
		pending = append(splitPath(target), pending...)
	}
	return resolved, nil
}

// readLink reports whether p is a symlink and where it points. A missing p
// is not an error: it is simply not a link.
func readLink(p string) (string, bool, error) {
	info, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		// Missing, or below a regular file: not a link. The operation
		// itself reports the OS error.
		return "", false, nil
	case err != nil:
		return "", false, cleanErr("resolve", err)
	case info.Mode()&fs.ModeSymlink == 0:
		return "", false, nil
	}
	target, err := os.Readlink(p)
	if err != nil {
		return "", false, cleanErr("resolve", err)
	}
	return target, true, nil
}

func splitPath(p string) []string {
	parts := strings.Split(p, string(filepath.Separator))
	out := parts[:0]
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
