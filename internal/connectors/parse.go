package connectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// EnvFunc looks an environment variable up, reporting whether it is set.
type EnvFunc func(name string) (string, bool)

// Parse parses connectors.json. env resolves ${NAME} references; nil means
// no variable is set. The returned File holds everything that could be
// understood even when problems are reported.
func Parse(data []byte, env EnvFunc) (*File, []Problem) {
	if env == nil {
		env = func(string) (string, bool) { return "", false }
	}
	p := &parser{data: data, env: env, lines: lineStarts(data)}
	f := &File{}
	p.parseFile(f)
	return f, p.problems
}

type parser struct {
	data     []byte
	env      EnvFunc
	lines    []int
	problems []Problem
}

func (p *parser) report(kind string, sev Severity, off int, path, format string, args ...any) {
	line, col := p.position(off)
	p.problems = append(p.problems, Problem{
		Kind: kind, Severity: sev, Message: fmt.Sprintf(format, args...),
		Path: path, Offset: off, Line: line, Column: col,
	})
}

func (p *parser) errorf(kind string, off int, path, format string, args ...any) {
	p.report(kind, SeverityError, off, path, format, args...)
}

func (p *parser) warnf(kind string, off int, path, format string, args ...any) {
	p.report(kind, SeverityWarning, off, path, format, args...)
}

func (p *parser) syntax(err error, path string) {
	if pe, ok := err.(*posError); ok {
		p.errorf(KindSyntax, pe.Off, path, "%s", pe.Msg)
		return
	}
	p.errorf(KindSyntax, 0, path, "%v", err)
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
			p.errorf(KindDuplicateKey, fl.KeyOff, fl.Key, "duplicate key %q", fl.Key)
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
	p.errorf(KindMissingEnv, off, path, "environment variable %s is not set (referenced as ${%s})", name, name)
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

// lineStarts returns the byte offsets at which lines start.
func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func (p *parser) position(off int) (line, col int) {
	lo, hi := 0, len(p.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if p.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, off - p.lines[lo] + 1
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
