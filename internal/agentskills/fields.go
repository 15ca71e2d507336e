package agentskills

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// The frontmatter keys of the specification.
const (
	keyName          = "name"
	keyDescription   = "description"
	keyLicense       = "license"
	keyCompatibility = "compatibility"
	keyMetadata      = "metadata"
	keyAllowedTools  = "allowed-tools"
)

// SpecKeys returns the six top-level keys the specification defines.
func SpecKeys() []string {
	return []string{keyName, keyDescription, keyLicense, keyCompatibility, keyMetadata, keyAllowedTools}
}

// ClaudeCodeKeys returns the extra top-level keys Claude Code reads; they
// are accepted silently with the claude profile.
func ClaudeCodeKeys() []string {
	return []string{"allowed-tools", "argument-hint", "arguments", "agent", "context", "disable-model-invocation", "hooks", "model", "user-invocable", "version", "when_to_use"}
}

// reservedMetaPrefix is the metadata key prefix SEP-2640 reserves.
const reservedMetaPrefix = "io.modelcontextprotocol/"

// pair is one key/value of a mapping.
type pair struct {
	key, val *yaml.Node
}

// pairs returns the key/value pairs of mapping m whose keys are scalars,
// first occurrence of each key only.
func pairs(m *yaml.Node) []pair {
	var out []pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode || seen[k.Value] {
			continue
		}
		seen[k.Value] = true
		out = append(out, pair{k, m.Content[i+1]})
	}
	return out
}

// fields reads and validates the top-level keys.
func (p *parser) fields(root *yaml.Node) {
	s := p.s
	s.Frontmatter = map[string]any{}
	got := map[string]pair{}
	for _, kv := range pairs(root) {
		s.Keys[kv.key.Value] = p.nodeRange(kv.key)
		s.Frontmatter[kv.key.Value] = toAny(kv.val)
		got[kv.key.Value] = kv
	}
	for _, kv := range pairs(root) {
		p.unknownKey(kv.key, got)
	}
	p.name(got)
	p.description(got)
	if kv, ok := got[keyLicense]; ok {
		s.License, _ = p.text(kv, true)
	}
	p.compatibility(got)
	p.metadata(got)
	p.classification()
	p.allowedTools(got)
}

// unknownKey reports a top-level key outside the specification's six.
func (p *parser) unknownKey(k *yaml.Node, got map[string]pair) {
	name := k.Value
	if contains(SpecKeys(), name) {
		return
	}
	if contains(ClaudeCodeKeys(), name) {
		if !p.opts.Claude {
			p.report(RuleUnknownKey, p.nodeRange(k), "%q is a Claude Code key, not part of the Agent Skills specification; it is kept in the raw frontmatter (--profile claude accepts it)", name)
		}
		return
	}
	msg := "unknown frontmatter key %q; the specification defines name, description, license, compatibility, metadata and allowed-tools"
	d := p.report(RuleUnknownKey, p.nodeRange(k), msg, name)
	if c := closest(name, SpecKeys()); c != "" {
		d.Message += "; did you mean " + c + "?"
		if _, taken := got[c]; !taken {
			d.WithFix("rename to "+c, p.nodeRange(k), c)
		}
	}
}

// closest returns the candidate within edit distance 2 of s, or "".
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := textdist.Distance(strings.ToLower(s), c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// text returns the string value of a scalar field. A list or map is
// reported (rule skillmd-field-type) and yields ok == false. lenient
// fields (license) are only warned about and may hold non-strings.
func (p *parser) text(kv pair, lenient bool) (string, bool) {
	v := resolve(kv.val)
	if v.Kind != yaml.ScalarNode {
		d := p.report(RuleFieldType, p.nodeRange(kv.val), "%s must be text, not a %s", kv.key.Value, kindName(v))
		if lenient {
			d.Severity = ast.Warning
		}
		return "", false
	}
	if v.Tag == "!!null" {
		return "", true
	}
	if lenient && v.Tag != "!!str" {
		p.report(RuleFieldType, p.nodeRange(kv.val), "%s should be text; %s is read as the string %q", kv.key.Value, tagName(v.Tag), v.Value).Severity = ast.Warning
	}
	return v.Value, true
}

// tagName describes a resolved YAML tag.
func tagName(tag string) string {
	switch tag {
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!timestamp":
		return "a date"
	}
	return "a value"
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// toAny converts a node into plain values for JSON: maps, lists and typed
// scalars. Aliases are resolved one level (to a scalar) only, so no input
// can make the copy grow beyond the size of the source.
func toAny(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for _, kv := range pairs(n) {
			m[kv.key.Value] = toAny(kv.val)
		}
		return m
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, toAny(c))
		}
		return out
	case yaml.AliasNode:
		if n.Alias != nil && n.Alias.Kind == yaml.ScalarNode {
			return toAny(n.Alias)
		}
		return nil
	}
	var v any
	if n.Decode(&v) != nil {
		return n.Value
	}
	return v
}

// keyRange returns the range of key k, or the opening delimiter when the
// key is absent (the place to add it).
func (p *parser) keyRange(got map[string]pair, k string) ast.Range {
	if kv, ok := got[k]; ok {
		return p.nodeRange(kv.val).Join(p.nodeRange(kv.key))
	}
	return p.lineRange(1)
}

// name validates the name field.
func (p *parser) name(got map[string]pair) {
	kv, ok := got[keyName]
	if !ok {
		p.report(RuleMissingName, p.lineRange(1), "the frontmatter has no name; add `name: %s`", p.suggestName())
		return
	}
	v, ok := p.text(kv, false)
	if !ok {
		return
	}
	r := p.nodeRange(kv.val)
	if strings.TrimSpace(v) == "" {
		p.report(RuleMissingName, p.keyRange(got, keyName), "name is empty; use lowercase letters, digits and hyphens, like %q", p.suggestName())
		return
	}
	p.s.Name = v
	p.checkName(v, r)
}

// suggestName returns the directory name when it is a valid name.
func (p *parser) suggestName() string {
	if nameProblem(p.s.DirName, p.opts.UnicodeNames) == "" {
		return p.s.DirName
	}
	return "my-skill"
}

// checkName reports format, length, directory and profile problems.
func (p *parser) checkName(v string, r ast.Range) {
	if n := utf8.RuneCountInString(nfkc(v)); n > maxNameRunes {
		p.report(RuleNameLength, r, "name is %d characters long; the limit is %d", n, maxNameRunes)
	}
	if why := nameProblem(v, p.opts.UnicodeNames); why != "" {
		d := p.report(RuleNameFormat, r, "invalid name %q: %s", v, why)
		if fixed := SanitizeName(v); fixed != "" && fixed != v {
			d.WithFix("rename to "+fixed, r, fixed)
		}
	}
	if dir := p.s.DirName; dir != "" && nfkc(dir) != nfkc(v) {
		d := p.report(RuleNameDir, r, "name %q differs from its directory %q", v, dir)
		if nameProblem(dir, p.opts.UnicodeNames) == "" {
			d.WithFix("rename to "+dir, r, dir)
		}
	}
	if p.opts.Claude {
		p.claudeName(v, r)
	}
}

// claudeName applies the claude profile's name restrictions.
func (p *parser) claudeName(v string, r ast.Range) {
	low := strings.ToLower(v)
	for _, w := range []string{"anthropic", "claude"} {
		if strings.Contains(low, w) {
			p.report(RuleClaudeProfile, r, "name %q contains the reserved word %q", v, w)
		}
	}
	if strings.ContainsAny(v, "<>") {
		p.report(RuleClaudeProfile, r, "name %q contains `<` or `>`", v)
	}
}

// description validates the description field.
func (p *parser) description(got map[string]pair) {
	kv, ok := got[keyDescription]
	if !ok {
		p.report(RuleMissingDesc, p.lineRange(1), "the frontmatter has no description; say what the skill does and when to use it")
		return
	}
	v, ok := p.text(kv, false)
	if !ok {
		return
	}
	if strings.TrimSpace(v) == "" {
		p.report(RuleMissingDesc, p.keyRange(got, keyDescription), "description is empty; say what the skill does and when to use it")
		return
	}
	p.s.Description = v
	r := p.nodeRange(kv.val)
	if n := utf8.RuneCountInString(v); n > maxDescRunes {
		p.report(RuleDescLength, r, "description is %d characters long; the limit is %d", n, maxDescRunes)
	}
	if p.opts.Claude && strings.ContainsAny(v, "<>") {
		p.report(RuleClaudeProfile, r, "description contains `<` or `>`")
	}
}

// compatibility validates the compatibility field.
func (p *parser) compatibility(got map[string]pair) {
	kv, ok := got[keyCompatibility]
	if !ok {
		return
	}
	v, ok := p.text(kv, false)
	if !ok {
		return
	}
	p.s.Compatibility = v
	switch n := utf8.RuneCountInString(v); {
	case strings.TrimSpace(v) == "":
		p.report(RuleCompatibility, p.keyRange(got, keyCompatibility), "compatibility is empty; remove the key or describe the requirements")
	case n > maxCompatRunes:
		p.report(RuleCompatibility, p.nodeRange(kv.val), "compatibility is %d characters long; the limit is %d", n, maxCompatRunes)
	}
}

// metadata validates the metadata map and reads it as strings.
func (p *parser) metadata(got map[string]pair) {
	kv, ok := got[keyMetadata]
	if !ok {
		return
	}
	m := resolve(kv.val)
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return
	}
	if m.Kind != yaml.MappingNode {
		p.report(RuleMetadata, p.nodeRange(kv.val), "metadata must be a map of strings to strings, not a %s", kindName(m))
		return
	}
	p.s.Metadata = map[string]string{}
	for _, e := range pairs(m) {
		p.metadataEntry(e)
	}
}

// metadataEntry validates one metadata key and value.
func (p *parser) metadataEntry(e pair) {
	k := e.key.Value
	if strings.HasPrefix(k, reservedMetaPrefix) {
		p.report(RuleMetadata, p.nodeRange(e.key), "metadata key %q uses the prefix %s reserved by the MCP skills extension", k, reservedMetaPrefix)
	}
	v := resolve(e.val)
	if k == "classification" && v.Kind == yaml.MappingNode {
		p.nestedClassification(e.key, v)
		return
	}
	if v.Kind != yaml.ScalarNode {
		p.report(RuleMetadata, p.nodeRange(e.val), "metadata value of %q is a %s; values must be strings (flatten nested keys: %s.child)", k, kindName(v), k)
		return
	}
	if v.Tag != "!!str" {
		r := p.nodeRange(e.val)
		d := p.report(RuleMetadataValue, r, "metadata value of %q is read as the string %q", k, v.Value)
		if r.To > r.From {
			d.WithFix("quote the value", r, yamlQuote(v.Value))
		}
	}
	p.s.Metadata[k] = v.Value
	p.metaKeys[k], p.metaVals[k] = p.nodeRange(e.key), p.nodeRange(e.val)
}

// nestedClassification reads metadata.classification written as a map:
// a warning in compat mode (its children are read as the flattened
// classification.<key> entries), an error in strict mode.
func (p *parser) nestedClassification(key, m *yaml.Node) {
	d := p.report(RuleClassNested, p.nodeRange(key), "metadata.classification is a nested map; metadata values must be strings: write classification.role, classification.invocation, classification.effect_mode and classification.attach_targets")
	if d.Severity == ast.Error {
		return
	}
	for _, c := range pairs(m) {
		v := resolve(c.val)
		full := "classification." + c.key.Value
		switch v.Kind {
		case yaml.ScalarNode:
			p.s.Metadata[full] = v.Value
		case yaml.SequenceNode: // attach_targets: [run, output]
			var items []string
			for _, it := range v.Content {
				items = append(items, resolve(it).Value)
			}
			p.s.Metadata[full] = strings.Join(items, " ")
		default:
			p.report(RuleClassValue, p.nodeRange(c.val), "classification %s must be a string", c.key.Value)
			continue
		}
		p.metaKeys[full], p.metaVals[full] = p.nodeRange(c.key), p.nodeRange(c.val)
	}
}

// classification validates the classification.* metadata keys with the
// shared validator and keeps the result in Skill.Class.
func (p *parser) classification() {
	src, ok := classification.FromMetadata(p.s.Metadata, p.metaKeys, p.metaVals, p.s.Keys[keyMetadata])
	if !ok {
		return
	}
	c, probs := classification.Build(src)
	p.s.Class = c
	for _, pr := range probs {
		d := p.report(classRule(pr.Code), pr.Range, "%s", pr.Message)
		if pr.Suggest != "" {
			d.WithFix("use "+pr.Suggest, pr.Range, pr.Suggest)
		}
	}
}

func classRule(code string) string {
	switch code {
	case classification.CodeSidecarDirect:
		return RuleClassSidecarDirect
	case classification.CodeAttachTargets:
		return RuleClassAttachTargets
	case classification.CodeDirectTargets:
		return RuleClassDirectTargets
	}
	return RuleClassValue
}

// allowedTools reads allowed-tools as a space-separated string or a list.
func (p *parser) allowedTools(got map[string]pair) {
	kv, ok := got[keyAllowedTools]
	if !ok {
		return
	}
	v := resolve(kv.val)
	switch v.Kind {
	case yaml.SequenceNode:
		var items []string
		for _, c := range v.Content {
			if c = resolve(c); c.Kind == yaml.ScalarNode {
				items = append(items, c.Value)
			}
		}
		p.s.AllowedTools = items
		r := p.nodeRange(kv.val)
		p.report(RuleAllowedTools, r, "allowed-tools is a list; the specification uses one space-separated string").
			WithFix("write one string", r, yamlQuote(strings.Join(items, " ")))
	case yaml.ScalarNode:
		tools, commas := SplitTools(v.Value)
		p.s.AllowedTools = tools
		if commas {
			p.report(RuleAllowedTools, p.nodeRange(kv.val), "allowed-tools separated by commas; separate tools with spaces")
		}
	default:
		p.report(RuleFieldType, p.nodeRange(kv.val), "allowed-tools must be a string, not a %s", kindName(v))
	}
}

// SplitTools splits an allowed-tools string at spaces (and commas) outside
// parentheses: "Bash(git add:*) Read" is two tools. commas reports
// whether a comma separated two tools.
func SplitTools(s string) (tools []string, commas bool) {
	depth, start := 0, 0
	flush := func(i int) {
		if t := strings.TrimSpace(s[start:i]); t != "" {
			tools = append(tools, t)
		}
		start = i + 1
	}
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && r == ',':
			commas = true
			flush(i)
		case depth == 0 && (r == ' ' || r == '\t' || r == '\n'):
			flush(i)
		}
	}
	flush(len(s))
	return tools, commas
}
