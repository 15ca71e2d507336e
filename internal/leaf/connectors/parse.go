package connectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// EnvFunc looks an environment variable up, reporting whether it is set.
type EnvFunc func(name string) (string, bool)

// Parse parses connectors.json. env resolves ${NAME} references; nil means
// no variable is set. The returned File holds everything that could be
// understood even when problems are reported. Problems are diagnostics
// with byte ranges into data under the rules unknown-connector-class and
// invalid-connectors-config.
func Parse(data []byte, env EnvFunc) (*File, ast.Diagnostics) {
	if env == nil {
		env = func(string) (string, bool) { return "", false }
	}
	p := &parser{data: data, env: env}
	f := &File{}
	p.parseFile(f)
	return f, p.problems
}

type parser struct {
	data     []byte
	env      EnvFunc
	problems ast.Diagnostics
}

// report adds a problem of kind at the JSON value starting at byte off;
// path (the dotted JSON path of the value) is kept for the reader of the
// call site only.
func (p *parser) report(kind string, sev ast.Severity, off int, _, format string, args ...any) {
	off = min(max(off, 0), len(p.data))
	end := min(off+valueLen(p.data, off), len(p.data))
	p.problems = append(p.problems, &ast.Diagnostic{
		Severity: sev, Rule: ruleOf(kind), Range: ast.RangeOf(off, end), Message: fmt.Sprintf(format, args...),
	})
}

func (p *parser) errorf(kind string, off int, path, format string, args ...any) {
	p.report(kind, ast.Error, off, path, format, args...)
}

func (p *parser) warnf(kind string, off int, path, format string, args ...any) {
	p.report(kind, ast.Warning, off, path, format, args...)
}

func (p *parser) syntax(err error, path string) {
	if pe, ok := err.(*posError); ok {
		p.errorf(kindSyntax, pe.Off, path, "%s", pe.Msg)
		return
	}
	p.errorf(kindSyntax, 0, path, "%v", err)
}

func (p *parser) parseFile(f *File) {
	if len(bytes.TrimSpace(p.data)) == 0 {
		return
	}
	fields, err := objectFields(p.data, 0)
	if err != nil {
		p.syntax(err, "")
	}
	seen := map[string]bool{}
	for _, fl := range fields {
		if strings.HasPrefix(fl.Key, "_") {
			continue
		}
		if seen[fl.Key] {
			p.errorf(kindDuplicateKey, fl.KeyOff, fl.Key, "duplicate key %q", fl.Key)
			continue
		}
		seen[fl.Key] = true
		p.parseTopLevel(f, fl)
	}
	p.finishModels(f)
}

func (p *parser) parseTopLevel(f *File, fl field) {
	switch fl.Key {
	case "substrate":
		p.parseSubstrate(f, fl)
	case "localModels":
		p.parseLocalModels(f, fl)
	default:
		if c := p.parseEntry(fl); c != nil {
			f.Connectors = append(f.Connectors, c)
		}
	}
}

// expand replaces ${NAME} references in s. scope values win over env.
func (p *parser) expand(s string, off int, path string, scope map[string]string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 || !validEnvName(s[i+2:i+j]) {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(p.lookup(s[i+2:i+j], off, path, scope))
		s = s[i+j+1:]
	}
}

func (p *parser) lookup(name string, off int, path string, scope map[string]string) string {
	if v, ok := scope[name]; ok {
		return v
	}
	if v, ok := p.env(name); ok {
		return v
	}
	p.errorf(kindMissingEnv, off, path, "environment variable %s is not set (referenced as ${%s})", name, name)
	return ""
}

func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// valueLen returns the length of the JSON string or word at off.
func valueLen(src []byte, off int) int {
	if off >= len(src) {
		return 0
	}
	if src[off] == '"' {
		for i := off + 1; i < len(src); i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i - off + 1
			case '\n':
				return i - off
			}
		}
		return len(src) - off
	}
	n := 0
	for off+n < len(src) && isWordByte(src[off+n]) {
		n++
	}
	return max(n, 1)
}

// isWordByte reports whether b continues a JSON literal (true, null, a
// number's digits).
func isWordByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// decodeAny decodes raw into a generic value, expanding ${ENV} in every
// string.
func (p *parser) decodeAny(raw json.RawMessage, off int, path string, scope map[string]string) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		p.syntax(jsonErr(raw, off, err), path)
		return nil
	}
	return p.expandAny(v, off, path, scope)
}

func (p *parser) expandAny(v any, off int, path string, scope map[string]string) any {
	switch x := v.(type) {
	case string:
		return p.expand(x, off, path, scope)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = p.expandAny(x[i], off, path, scope)
		}
	case map[string]any:
		for k := range x {
			x[k] = p.expandAny(x[k], off, path+"."+k, scope)
		}
	}
	return v
}
