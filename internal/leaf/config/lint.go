package config

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/skillscript/skillc/ast"
)

// LintSettings is the "lint" member of skillscript.config.json:
//
//	{"lint": {"severity": {"rule-id": "error|warning|info|off"},
//	          "disable": ["rule-id"],
//	          "ignore": ["generated/**", "*.draft.skill.md"]}}
//
// Rule ids are not checked here; the linter reports unknown ones.
type LintSettings struct {
	// Severity overrides the severity of rules; a zero severity turns the
	// rule off.
	Severity map[string]ast.Severity
	// Disable lists rules that are turned off.
	Disable []string
	// Ignore lists slash-separated glob patterns of files not to lint. "**"
	// matches any number of directories; a pattern without a slash matches
	// the file name at any depth.
	Ignore []string
	// BaseDir is the directory ignore patterns are relative to (the
	// directory of the configuration file).
	BaseDir string
}

// RuleSeverity returns the severity rule should have given its default, and
// false when the configuration turns the rule off.
func (l *LintSettings) RuleSeverity(rule string, def ast.Severity) (ast.Severity, bool) {
	for _, d := range l.Disable {
		if d == rule {
			return 0, false
		}
	}
	if s, ok := l.Severity[rule]; ok {
		return s, s != 0
	}
	return def, true
}

// Ignored reports whether file matches an ignore pattern. The patterns
// are relative to BaseDir (the configuration file's directory), whatever
// the current directory: a relative file path is made absolute first
// when BaseDir is.
func (l *LintSettings) Ignored(file string) bool {
	if len(l.Ignore) == 0 {
		return false
	}
	rel := file
	if l.BaseDir != "" && filepath.IsAbs(l.BaseDir) && !filepath.IsAbs(file) {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
	}
	if l.BaseDir != "" && filepath.IsAbs(file) == filepath.IsAbs(l.BaseDir) {
		if r, err := filepath.Rel(l.BaseDir, file); err == nil {
			rel = r
		}
	}
	rel = strings.TrimPrefix(filepath.ToSlash(rel), "./")
	if l.BaseDir != "" && (rel == ".." || strings.HasPrefix(rel, "../")) {
		// the globs are relative to the configuration's directory: a file
		// outside it is never ignored by them (a "**/tmp/**" must not match
		// the "../tmp/..." of a checkout that lives under /tmp)
		return false
	}
	for _, pat := range l.Ignore {
		if matchGlob(pat, rel) {
			return true
		}
	}
	return false
}

// matchGlob matches a slash-separated path against pattern with
// doublestar: a "**" segment matches zero or more segments, "{a,b}"
// alternatives. A pattern without a slash is matched against the last
// segment.
func matchGlob(pattern, name string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	if !strings.Contains(pattern, "/") {
		ok, _ := doublestar.Match(pattern, path.Base(name))
		return ok
	}
	ok, _ := doublestar.Match(pattern, name)
	return ok
}

// validGlob reports whether pattern is a valid glob.
func validGlob(pattern string) bool {
	return pattern != "" && doublestar.ValidatePattern(pattern)
}
