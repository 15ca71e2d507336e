package mock

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/skillscript/skillc/eval/value"
	"go.yaml.in/yaml/v3"
)

// FileError reports a problem in a mock file at a line and column.
type FileError struct {
	File         string
	Line, Column int
	Msg          string
}

// Error implements error.
func (e *FileError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// response is one canned answer.
type response struct {
	result  any
	errText string
	isError bool
	delay   time.Duration
}

// entry is one mocks: item.
type entry struct {
	op        string
	args      *value.Object // exact matchers
	contains  *value.Object // substring matchers
	responses []response
	line      int
	served    int // guarded by Mock.mu
}

// Load reads and parses a mock file.
func Load(path string) (*Mock, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mock file: %w", err)
	}
	return Parse(path, data)
}

// Parse parses mock file content; name is used in error positions.
func Parse(name string, data []byte) (*Mock, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	p := parser{file: name}
	if len(doc.Content) == 0 {
		return nil, &FileError{File: name, Line: 1, Column: 1, Msg: "mock file is empty (want a mapping with a mocks: list)"}
	}
	entries, err := p.root(doc.Content[0])
	if err != nil {
		return nil, err
	}
	return &Mock{entries: entries}, nil
}

type parser struct {
	file string
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) error {
	return &FileError{File: p.file, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) root(root *yaml.Node) ([]*entry, error) {
	if root.Kind != yaml.MappingNode {
		return nil, p.errorf(root, "mock file must be a mapping with a mocks: list")
	}
	var list *yaml.Node
	err := p.fields(root, "mock file", func(key string, v *yaml.Node) error {
		if key != "mocks" {
			return fmt.Errorf("known keys: mocks")
		}
		list = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, p.errorf(root, "mocks: must be a list of entries")
	}
	entries := make([]*entry, 0, len(list.Content))
	for _, n := range list.Content {
		e, err := p.entry(n)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// fields walks a mapping's keys, turning an error from visit into an
// "unknown key" FileError at the key's position.
func (p *parser) fields(n *yaml.Node, what string, visit func(key string, v *yaml.Node) error) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := visit(k.Value, v); err != nil {
			if fe, ok := err.(*FileError); ok {
				return fe
			}
			return p.errorf(k, "unknown key %q in %s (%v)", k.Value, what, err)
		}
	}
	return nil
}

func (p *parser) entry(n *yaml.Node) (*entry, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, "mock entry must be a mapping")
	}
	e := &entry{line: n.Line}
	var inline response
	var hasInline, hasSeq bool
	err := p.fields(n, "mock entry", func(key string, v *yaml.Node) error {
		switch key {
		case "op":
			if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
				return p.errorf(v, "op must be a non-empty name")
			}
			e.op = strings.TrimSpace(v.Value)
		case "args", "contains":
			obj, err := p.matchers(v, key)
			if key == "args" {
				e.args = obj
			} else {
				e.contains = obj
			}
			return err
		case "responses":
			hasSeq = true
			return p.responses(v, e)
		case "result", "error", "is_error", "delay":
			hasInline = true
			return p.responseField(&inline, key, v)
		default:
			return fmt.Errorf("known keys: op, args, contains, result, error, is_error, delay, responses")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return e, p.finishEntry(n, e, inline, hasInline, hasSeq)
}

func (p *parser) finishEntry(n *yaml.Node, e *entry, inline response, hasInline, hasSeq bool) error {
	switch {
	case e.op == "":
		return p.errorf(n, "mock entry has no op")
	case hasInline && hasSeq:
		return p.errorf(n, "mock entry for %s has both an inline response and responses:", e.op)
	case hasInline:
		e.responses = []response{inline}
	case !hasSeq:
		return p.errorf(n, "mock entry for %s has no result, error, is_error or responses", e.op)
	}
	return nil
}

func (p *parser) matchers(n *yaml.Node, key string) (*value.Object, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, "%s: must be a mapping of argument names to values", key)
	}
	v, err := p.value(n)
	if err != nil {
		return nil, err
	}
	return v.(*value.Object), nil
}

func (p *parser) responses(n *yaml.Node, e *entry) error {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return p.errorf(n, "responses: must be a non-empty list")
	}
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			return p.errorf(item, "a response must be a mapping")
		}
		var r response
		err := p.fields(item, "response", func(key string, v *yaml.Node) error {
			switch key {
			case "result", "error", "is_error", "delay":
				return p.responseField(&r, key, v)
			}
			return fmt.Errorf("known keys: result, error, is_error, delay")
		})
		if err != nil {
			return err
		}
		e.responses = append(e.responses, r)
	}
	return nil
}

func (p *parser) responseField(r *response, key string, v *yaml.Node) error {
	var err error
	switch key {
	case "result":
		r.result, err = p.value(v)
	case "error":
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			return p.errorf(v, "error: must be a non-empty message")
		}
		r.errText = v.Value
	case "is_error":
		if v.Kind != yaml.ScalarNode || (v.Value != "true" && v.Value != "false") {
			return p.errorf(v, "is_error: must be true or false")
		}
		r.isError = v.Value == "true"
	case "delay":
		r.delay, err = p.delay(v)
	}
	return err
}

func (p *parser) delay(v *yaml.Node) (time.Duration, error) {
	if v.Kind != yaml.ScalarNode {
		return 0, p.errorf(v, "delay: must be a duration such as 2s or 150ms")
	}
	if secs, err := strconv.ParseFloat(v.Value, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil || d < 0 {
		return 0, p.errorf(v, "delay: %q is not a duration such as 2s or 150ms", v.Value)
	}
	return d, nil
}

// value converts a YAML node into the value model, keeping key order.
func (p *parser) value(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return p.value(n.Alias)
	case yaml.ScalarNode:
		return p.scalar(n)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := p.value(c)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		return p.mapping(n)
	}
	return nil, p.errorf(n, "unsupported YAML node")
}

func (p *parser) mapping(n *yaml.Node) (any, error) {
	obj := value.NewObject(len(n.Content) / 2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			return nil, p.errorf(k, "object keys must be plain text")
		}
		v, err := p.value(n.Content[i+1])
		if err != nil {
			return nil, err
		}
		obj.Set(k.Value, v)
	}
	return obj, nil
}

func (p *parser) scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, p.errorf(n, "%v", err)
		}
		return b, nil
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, p.errorf(n, "%v", err)
		}
		return f, nil
	}
	return n.Value, nil
}
