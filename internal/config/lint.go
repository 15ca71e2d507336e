package config

import (
	"path"
	"path/filepath"
	"strings"

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

// Ignored reports whether file matches an ignore pattern. A file path is
// made relative to BaseDir first when both are absolute.
func (l *LintSettings) Ignored(file string) bool {
	if len(l.Ignore) == 0 {
		return false
	}
	rel := file
	if l.BaseDir != "" && filepath.IsAbs(file) == filepath.IsAbs(l.BaseDir) {
		if r, err := filepath.Rel(l.BaseDir, file); err == nil {
			rel = r
		}
	}
	rel = strings.TrimPrefix(filepath.ToSlash(rel), "./")
	for _, pat := range l.Ignore {
		if matchGlob(pat, rel) {
			return true
		}
	}
	return false
}

// matchGlob matches a slash-separated path against pattern, where a "**"
// segment matches zero or more segments and other segments use path.Match.
// A pattern without a slash is matched against the last segment.
func matchGlob(pattern, name string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(name))
		return ok
	}
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

// matchSegments matches path segments against pattern segments.
func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// validGlob reports whether every segment of pattern is a valid path.Match pattern.
func validGlob(pattern string) bool {
	for _, seg := range strings.Split(pattern, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return pattern != ""
}
