package config

import (
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// parseLint converts the "lint" member. Its type was already checked by
// checkMembers, so a non-object is skipped quietly.
func (p *fileParser) parseLint(raw any) LintSettings {
	ls := LintSettings{BaseDir: dirOf(p.path)}
	obj, ok := raw.(map[string]any)
	if !ok {
		return ls
	}
	if sev, ok := obj["severity"]; ok {
		ls.Severity = p.lintSeverities(sev)
	}
	if dis, ok := obj["disable"]; ok {
		ls.Disable = p.stringList("/lint/disable", dis, nil)
	}
	if ign, ok := obj["ignore"]; ok {
		ls.Ignore = p.stringList("/lint/ignore", ign, validGlob)
	}
	return ls
}

// lintSeverities converts {"rule-id": "error|warning|info|off"}.
func (p *fileParser) lintSeverities(raw any) map[string]ast.Severity {
	const ptr = "/lint/severity"
	obj, ok := raw.(map[string]any)
	if !ok {
		p.report(ast.Error, ptr, false, "lint.severity must be an object mapping rule ids to severities, not %s", typeName(raw))
		return nil
	}
	out := map[string]ast.Severity{}
	for _, rule := range sortedKeys(obj) {
		rptr := ptr + "/" + escapePointer(rule)
		s, isStr := obj[rule].(string)
		if !isStr {
			p.report(ast.Error, rptr, false, "severity of %s must be a string (error, warning, info or off), not %s", quote(rule), typeName(obj[rule]))
			continue
		}
		sev, ok := ast.ParseSeverity(s)
		if !ok {
			p.report(ast.Error, rptr, false, "unknown severity %s for %s (use error, warning, info or off)", quote(s), quote(rule))
			continue
		}
		out[rule] = sev
	}
	return out
}

// stringList converts an array of non-empty strings, checking each with
// valid when it is not nil.
func (p *fileParser) stringList(ptr string, raw any, valid func(string) bool) []string {
	arr, ok := raw.([]any)
	if !ok {
		p.report(ast.Error, ptr, false, "%s must be an array of strings, not %s", displayPath(ptr), typeName(raw))
		return nil
	}
	var out []string
	for i, el := range arr {
		eptr := ptr + "/" + itoa(i)
		s, isStr := el.(string)
		switch {
		case !isStr:
			p.report(ast.Error, eptr, false, "%s must be a string, not %s", displayPath(eptr), typeName(el))
		case strings.TrimSpace(s) == "":
			p.report(ast.Warning, eptr, false, "%s is empty", displayPath(eptr))
		case valid != nil && !valid(s):
			p.report(ast.Error, eptr, false, "%s: invalid pattern %s", displayPath(eptr), quote(s))
		default:
			out = append(out, s)
		}
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
