package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// utf8BOM is the byte order mark some editors put at the start of files.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// fileValue is the value a configuration file gives a setting.
type fileValue struct {
	val any
	src source
}

// configFile is a parsed skillscript.config.json.
type configFile struct {
	values  map[string]fileValue // by setting name
	lint    LintSettings
	hasLint bool
}

// fileParser holds the state of parsing one configuration file.
type fileParser struct {
	path     string
	data     []byte // the whole file, BOM included
	base     int    // offset of the JSON text in data (3 after a BOM)
	index    map[string]jsonPos
	get      func(string) (string, bool)
	home     string
	problems ast.Diagnostics
}

// ValidateFile checks the contents of a skillscript.config.json and returns
// its problems, resolving ${VAR} references with env (nil: no variables).
// Editors and `skillc config` use it on files that are not loaded.
func ValidateFile(path string, data []byte, env func(string) (string, bool)) ast.Diagnostics {
	if env == nil {
		env = noEnv
	}
	_, problems := parseConfigFile(path, data, env, "")
	return problems
}

// parseConfigFile parses and validates a configuration file. get resolves
// ${VAR} references; home expands a leading "~/" in paths.
func parseConfigFile(path string, data []byte, get func(string) (string, bool), home string) (*configFile, ast.Diagnostics) {
	p := &fileParser{path: path, data: data, get: get, home: home}
	cf := &configFile{values: map[string]fileValue{}}
	root, ok := p.decode()
	if !ok {
		return cf, p.problems
	}
	p.index = indexJSON(data[p.base:])
	for _, s := range settingsTable() {
		if v, ok := p.setting(root, s); ok {
			cf.values[s.name] = v
		}
	}
	p.checkUnknown(root)
	if lint, ok := root["lint"]; ok {
		cf.lint, cf.hasLint = p.parseLint(lint), true
	}
	sortByPosition(p.problems)
	return cf, p.problems
}

// noEnv is the empty environment.
func noEnv(string) (string, bool) { return "", false }

// report adds a problem at the value (or the key) of the member at ptr.
func (p *fileParser) report(sev ast.Severity, ptr string, atKey bool, format string, args ...any) {
	off := -1
	if pos, ok := p.index[ptr]; ok {
		off = p.base + pos.Value
		if atKey {
			off = p.base + pos.Key
		}
	}
	p.problems = append(p.problems, diagAt(sev, p.data, off, format, args...))
}

// decode parses the JSON text into a top-level object.
func (p *fileParser) decode() (map[string]any, bool) {
	body := p.data
	if bytes.HasPrefix(body, utf8BOM) {
		p.base = len(utf8BOM)
		body = body[p.base:]
		p.problems = append(p.problems, diagAt(ast.Warning, p.data, 0, "byte order mark at the start of the file is ignored"))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		p.syntaxError(err, int(dec.InputOffset()))
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		p.problems = append(p.problems, diagAt(ast.Error, p.data, p.base+int(dec.InputOffset()), "invalid JSON: unexpected data after the top-level value"))
		return nil, false
	}
	obj, ok := root.(map[string]any)
	if !ok {
		p.problems = append(p.problems, diagAt(ast.Error, p.data, p.base, "the configuration must be a JSON object, not %s", typeName(root)))
	}
	return obj, ok
}

// syntaxError reports a decoding error at the offset the decoder gives.
func (p *fileParser) syntaxError(err error, fallback int) {
	off, msg := fallback, err.Error()
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off = max(int(se.Offset)-1, 0)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off, msg = len(p.data)-p.base, "unexpected end of JSON input"
	}
	p.problems = append(p.problems, diagAt(ast.Error, p.data, p.base+off, "invalid JSON: %s", msg))
}

// lookupPointer returns the value at a JSON pointer of the form "/a/b".
func lookupPointer(root map[string]any, ptr string) (any, bool) {
	var cur any = root
	for _, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// setting finds and converts the value of s, reporting a conflict when two
// spellings of it disagree.
func (p *fileParser) setting(root map[string]any, s setting) (fileValue, bool) {
	var found fileValue
	var foundPtr string
	ok := false
	for _, ptr := range s.keys {
		raw, present := lookupPointer(root, ptr)
		if !present {
			continue
		}
		v, good := p.convert(s.kind, ptr, raw)
		if !good {
			continue
		}
		if !ok {
			found, foundPtr, ok = fileValue{val: v, src: source{File: p.path, Key: displayPath(ptr)}}, ptr, true
		} else if !reflect.DeepEqual(v, found.val) {
			p.report(ast.Warning, ptr, true, "%s conflicts with %s, which takes precedence", displayPath(ptr), displayPath(foundPtr))
		}
	}
	return found, ok
}

// convert checks and converts a JSON value to kind k.
func (p *fileParser) convert(k kind, ptr string, raw any) (any, bool) {
	if s, isStr := raw.(string); isStr && k != kindList && k != kindPathList {
		return p.convertText(k, ptr, s)
	}
	switch k {
	case kindList, kindPathList:
		return p.convertList(k, ptr, raw)
	case kindBool:
		if b, ok := raw.(bool); ok {
			return b, true
		}
	case kindInt:
		if n, ok := raw.(json.Number); ok {
			return p.convertText(k, ptr, n.String())
		}
	}
	p.report(ast.Error, ptr, false, "%s must be %s, not %s", displayPath(ptr), kindName(k), typeName(raw))
	return nil, false
}

// convertText substitutes ${VAR} references in s and parses the result.
func (p *fileParser) convertText(k kind, ptr, s string) (any, bool) {
	s, missing := substitute(s, p.get)
	if len(missing) > 0 {
		p.report(ast.Error, ptr, false, "%s: environment variable %s is not set", displayPath(ptr), missing[0])
		return nil, false
	}
	v, err := parseText(k, s)
	if err != nil {
		p.report(ast.Error, ptr, false, "%s: %v", displayPath(ptr), err)
		return nil, false
	}
	if k == kindPath {
		v = p.resolvePath(s)
	}
	return v, true
}

// convertList accepts an array of strings or one comma-separated string;
// the entries of a path list are resolved like paths.
func (p *fileParser) convertList(k kind, ptr string, raw any) (any, bool) {
	if s, ok := raw.(string); ok {
		v, good := p.convertText(kindList, ptr, s)
		if good && k == kindPathList {
			v = p.resolvePaths(v.([]string))
		}
		return v, good
	}
	arr, ok := raw.([]any)
	if !ok {
		p.report(ast.Error, ptr, false, "%s must be %s, not %s", displayPath(ptr), kindName(kindList), typeName(raw))
		return nil, false
	}
	out := []string{}
	good := true
	for i, el := range arr {
		s, isStr := el.(string)
		elPtr := ptr + "/" + itoa(i)
		if !isStr {
			p.report(ast.Error, elPtr, false, "%s must be a string, not %s", displayPath(elPtr), typeName(el))
			good = false
			continue
		}
		v, ok := p.convertText(kindString, elPtr, s)
		if ok && strings.TrimSpace(v.(string)) != "" {
			out = append(out, strings.TrimSpace(v.(string)))
		}
		good = good && ok
	}
	if k == kindPathList {
		out = p.resolvePaths(out)
	}
	return out, good
}

// resolvePaths resolves every entry with resolvePath.
func (p *fileParser) resolvePaths(list []string) []string {
	for i, s := range list {
		list[i] = p.resolvePath(s)
	}
	return list
}

// resolvePath expands "~/" and makes a relative path relative to the
// directory of the configuration file.
func (p *fileParser) resolvePath(s string) string {
	s = expandTilde(s, p.home)
	if s == "" || filepath.IsAbs(s) {
		return s
	}
	return filepath.Join(filepath.Dir(p.path), s)
}

// expandTilde replaces a leading "~" path element with home.
func expandTilde(s, home string) string {
	if home == "" || (s != "~" && !strings.HasPrefix(s, "~/") && !strings.HasPrefix(s, "~"+string(filepath.Separator))) {
		return s
	}
	return filepath.Join(home, s[1:])
}

// checkUnknown reports members the configuration does not know, with a
// suggestion when one is close to a known name. Members starting with "_"
// are comments.
func (p *fileParser) checkUnknown(root map[string]any) {
	known := knownMembers()
	p.checkMembers(root, "", known[""], known)
}

// checkMembers checks the members of obj (at ptr) against names, recursing
// into the known objects.
func (p *fileParser) checkMembers(obj map[string]any, ptr string, names []string, known map[string][]string) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		child := ptr + "/" + escapePointer(k)
		if sub, isObj := known[child]; isObj {
			if m, ok := obj[k].(map[string]any); ok {
				p.checkMembers(m, child, sub, known)
			} else {
				p.report(ast.Error, child, false, "%s must be an object, not %s", displayPath(child), typeName(obj[k]))
			}
			continue
		}
		if strings.HasPrefix(k, "_") || contains(names, k) {
			continue
		}
		if near := closest(k, names); near != "" {
			p.report(ast.Warning, child, true, "unknown field %s (did you mean %s?)", quote(k), quote(near))
		} else {
			p.report(ast.Info, child, true, "unknown field %s is ignored", quote(k))
		}
	}
}

// knownMembers maps the pointer of every known object ("" for the root) to
// the names of its known members.
func knownMembers() map[string][]string {
	known := map[string][]string{"": {"$schema", "lint"}, "/lint": nil}
	for _, s := range settingsTable() {
		for _, ptr := range s.keys {
			parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
			parent := ""
			for _, part := range parts {
				if !contains(known[parent], part) {
					known[parent] = append(known[parent], part)
				}
				parent += "/" + part
			}
		}
	}
	known["/lint"] = []string{"severity", "disable", "ignore"}
	return known
}

// kindName describes a kind for messages.
func kindName(k kind) string {
	switch k {
	case kindList, kindPathList:
		return "an array of strings"
	case kindBool:
		return "a boolean"
	case kindInt:
		return "a non-negative integer"
	}
	return "a string"
}

// typeName describes a decoded JSON value for messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "an unknown value"
}
