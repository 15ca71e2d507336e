package config

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// itoa formats an int.
func itoa(i int) string { return strconv.Itoa(i) }

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// dirOf returns the directory of path, or "" for an empty path.
func dirOf(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Dir(path)
}

// closest returns the candidate nearest to s (case-insensitive edit
// distance of at most 2, and less than half of s), or "".
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := textdist.Distance(strings.ToLower(s), strings.ToLower(c))
		if d < bestD && d*2 < len(s) {
			best, bestD = c, d
		}
	}
	return best
}
