package connectors

import (
	"encoding/json"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

var knownClasses = []string{ClassRemote, ClassHTTP}

// parseEntry parses one named MCP connector entry.
func (p *parser) parseEntry(fl field) *Connector {
	name := fl.Key
	fields, err := objectFields(fl.Raw, fl.ValOff)
	if err != nil {
		p.errorf(kindInvalidValue, fl.ValOff, name, "connector %q must be an object with \"class\" and \"config\", not %s", name, kindOf(fl.Raw))
		return nil
	}
	c := &Connector{Name: name, Offset: fl.KeyOff}
	byKey := indexFields(fields)
	if !p.entryClass(c, fl, byKey) {
		return nil
	}
	for _, f := range fields {
		p.entryField(c, f)
	}
	return c
}

func indexFields(fields []field) map[string]field {
	m := make(map[string]field, len(fields))
	for _, f := range fields {
		if _, dup := m[f.Key]; !dup {
			m[f.Key] = f
		}
	}
	return m
}

func (p *parser) entryClass(c *Connector, fl field, byKey map[string]field) bool {
	cf, ok := byKey["class"]
	if !ok {
		p.errorf(kindMissingField, fl.KeyOff, c.Name, "connector %q has no \"class\" (one of %s)", c.Name, strings.Join(knownClasses, ", "))
		return false
	}
	class, ok := p.str(cf, c.Name+".class", nil)
	if !ok {
		return false
	}
	c.Class = class
	if class != ClassRemote && class != ClassHTTP {
		msg := "unknown connector class %q for %q (known: %s)"
		args := []any{class, c.Name, strings.Join(knownClasses, ", ")}
		if s := closest(class, knownClasses); s != "" {
			msg += "; did you mean %q?"
			args = append(args, s)
		}
		p.errorf(kindUnknownConnectorClass, cf.ValOff, c.Name+".class", msg, args...)
		return false
	}
	cfg, ok := byKey["config"]
	if !ok {
		p.errorf(kindMissingField, fl.KeyOff, c.Name, "connector %q has no \"config\"", c.Name)
		return false
	}
	p.entryConfig(c, cfg)
	return true
}

func (p *parser) entryField(c *Connector, f field) {
	path := c.Name + "." + f.Key
	switch {
	case f.Key == "class" || f.Key == "config" || strings.HasPrefix(f.Key, "_"):
	case f.Key == "allowed_tools":
		p.allowedTools(c, f, path)
	case f.Key == "mutating":
		p.mutating(c, f, path)
	case f.Key == "tools":
		c.Tools = p.toolDecls(f, path)
	case f.Key == "description":
		p.str(f, path, nil)
	default:
		p.warnf(kindUnknownField, f.KeyOff, path, "unknown field %q in connector %q", f.Key, c.Name)
	}
}

func (p *parser) allowedTools(c *Connector, f field, path string) {
	if isNull(f.Raw) {
		return
	}
	if tools, ok := p.strList(f, path, nil); ok {
		c.AllowedTools = tools
	}
}

func (p *parser) mutating(c *Connector, f field, path string) {
	if kindOf(f.Raw) == "an array" {
		c.MutatingTools, _ = p.strList(f, path, nil)
		return
	}
	c.Mutating = p.boolean(f, path)
	c.ReadOnly = isFalse(f.Raw)
}

// isFalse reports a JSON false.
func isFalse(raw []byte) bool { return strings.TrimSpace(string(raw)) == "false" }

// entryConfig parses the class-specific config block. The env block is
// resolved first and then joins the substitution scope.
func (p *parser) entryConfig(c *Connector, cfg field) {
	path := c.Name + ".config"
	fields, err := objectFields(cfg.Raw, cfg.ValOff)
	if err != nil {
		p.errorf(kindInvalidValue, cfg.ValOff, path, "%s must be an object, not %s", path, kindOf(cfg.Raw))
		return
	}
	byKey := indexFields(fields)
	var scope map[string]string
	if ef, ok := byKey["env"]; ok {
		scope = p.strMap(ef, path+".env", nil)
	}
	if c.Class == ClassRemote {
		c.Stdio = p.stdioConfig(c, fields, scope, cfg)
	} else {
		c.HTTP = p.httpConfig(c, fields, scope, cfg)
	}
}

func (p *parser) stdioConfig(c *Connector, fields []field, scope map[string]string, cfg field) *StdioConfig {
	s := &StdioConfig{Env: scope}
	path := c.Name + ".config"
	for _, f := range fields {
		fp := path + "." + f.Key
		switch f.Key {
		case "command":
			s.Command, _ = p.str(f, fp, scope)
		case "args":
			s.Args, _ = p.strList(f, fp, scope)
		case "env":
		case "cwd", "dir":
			s.Dir, _ = p.str(f, fp, scope)
		case "framing":
			s.Framing = p.framing(f, fp)
		case "initTimeoutMs", "init_timeout_ms":
			s.InitTimeout = p.millis(f, fp)
		case "timeoutMs", "timeout_ms":
			s.Timeout = p.millis(f, fp)
		default:
			p.configField(c, f, fp)
		}
	}
	if s.Command == "" {
		p.errorf(kindMissingField, cfg.ValOff, path, "connector %q (%s) needs config.command", c.Name, c.Class)
	}
	if s.Framing == "" {
		p.warnf(kindFramingUnset, cfg.ValOff, path, "connector %q does not set config.framing; assuming \"newline\" (set it explicitly: a server using the other framing hangs until the init timeout)", c.Name)
		s.Framing = FramingNewline
	}
	return s
}

func (p *parser) framing(f field, path string) string {
	v, ok := p.str(f, path, nil)
	if !ok {
		return ""
	}
	if v != FramingNewline && v != FramingLSP {
		p.errorf(kindInvalidValue, f.ValOff, path, "framing must be \"newline\" or \"lsp\", not %q", v)
		return ""
	}
	return v
}

func (p *parser) httpConfig(c *Connector, fields []field, scope map[string]string, cfg field) *HTTPConfig {
	h := &HTTPConfig{}
	path := c.Name + ".config"
	for _, f := range fields {
		fp := path + "." + f.Key
		switch f.Key {
		case "endpoint", "url":
			h.URL, _ = p.str(f, fp, scope)
		case "headers":
			h.Headers = p.strMap(f, fp, scope)
		case "env":
		case "identityHeader":
			h.IdentityHeader, _ = p.str(f, fp, scope)
		case "maxPoolSize":
			h.MaxPoolSize = p.nonNegInt(f, fp)
		case "timeoutMs", "timeout_ms":
			h.Timeout = p.millis(f, fp)
		default:
			p.configField(c, f, fp)
		}
	}
	if h.URL == "" {
		p.errorf(kindMissingField, cfg.ValOff, path, "connector %q (%s) needs config.endpoint", c.Name, c.Class)
	}
	return h
}

// configField handles a config key the class does not know. allowed_tools
// there is a hard error: ignoring it would silently allow every tool.
func (p *parser) configField(c *Connector, f field, path string) {
	if f.Key == "allowed_tools" || f.Key == "allowedTools" {
		p.errorf(kindAllowedToolsInConfig, f.KeyOff, path,
			"allowed_tools must sit at the top level of connector %q, beside \"class\" and \"config\", not inside \"config\" (refusing to load: it would silently allow every tool)", c.Name)
		return
	}
	if strings.HasPrefix(f.Key, "_") {
		return
	}
	p.warnf(kindUnknownField, f.KeyOff, path, "unknown config field %q for %s connector %q", f.Key, c.Class, c.Name)
}

// toolDecls parses static tool declarations: an array of
// {name, description, inputSchema, outputSchema, mutating} or an object
// keyed by name.
func (p *parser) toolDecls(f field, path string) []ToolDecl {
	if kindOf(f.Raw) == "an object" {
		return p.toolDeclMap(f, path)
	}
	items, err := arrayItems(f.Raw, f.ValOff)
	if err != nil {
		p.errorf(kindInvalidValue, f.ValOff, path, "%s must be an array or object of tool declarations", path)
		return nil
	}
	var out []ToolDecl
	for _, it := range items {
		if t, ok := p.toolDecl(it, "", path); ok {
			out = append(out, t)
		}
	}
	return out
}

func (p *parser) toolDeclMap(f field, path string) []ToolDecl {
	fields, _ := objectFields(f.Raw, f.ValOff)
	var out []ToolDecl
	for _, it := range fields {
		if t, ok := p.toolDecl(it, it.Key, path+"."+it.Key); ok {
			out = append(out, t)
		}
	}
	return out
}

func (p *parser) toolDecl(it field, name, path string) (ToolDecl, bool) {
	fields, err := objectFields(it.Raw, it.ValOff)
	if err != nil {
		p.errorf(kindInvalidValue, it.ValOff, path, "tool declaration must be an object, not %s", kindOf(it.Raw))
		return ToolDecl{}, false
	}
	t := ToolDecl{Name: name, Offset: it.ValOff}
	for _, f := range fields {
		p.toolDeclField(&t, f, path+"."+f.Key)
	}
	if t.Name == "" {
		p.errorf(kindMissingField, it.ValOff, path, "tool declaration has no \"name\"")
		return t, false
	}
	return t, true
}

func (p *parser) toolDeclField(t *ToolDecl, f field, path string) {
	switch f.Key {
	case "name":
		t.Name, _ = p.str(f, path, nil)
	case "description":
		t.Description, _ = p.str(f, path, nil)
	case "inputSchema", "input_schema":
		t.InputSchema = p.schema(f, path)
	case "outputSchema", "output_schema":
		t.OutputSchema = p.schema(f, path)
	case "mutating":
		t.Mutating = p.boolean(f, path)
		t.ReadOnly = isFalse(f.Raw)
	default:
		if !strings.HasPrefix(f.Key, "_") {
			p.warnf(kindUnknownField, f.KeyOff, path, "unknown tool declaration field %q", f.Key)
		}
	}
}

func (p *parser) schema(f field, path string) json.RawMessage {
	var s jsonschema.Schema
	if kindOf(f.Raw) != "an object" {
		p.errorf(kindInvalidValue, f.ValOff, path, "input schema must be a JSON object, not %s", kindOf(f.Raw))
		return nil
	}
	if err := json.Unmarshal(f.Raw, &s); err != nil {
		p.errorf(kindInvalidValue, f.ValOff, path, "invalid input schema: %v", err)
		return nil
	}
	if _, err := s.Resolve(nil); err != nil {
		p.errorf(kindInvalidValue, f.ValOff, path, "invalid input schema: %v", err)
		return nil
	}
	return append(json.RawMessage(nil), f.Raw...)
}
