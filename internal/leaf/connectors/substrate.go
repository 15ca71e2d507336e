package connectors

import (
	"strings"
	"time"
)

// slotRule lists what a substrate slot accepts.
type slotRule struct {
	short []string // bare-string values
	types []string // object-form types (besides "custom")
	hint  string   // extra message for rejected short forms
}

var slotRules = map[string]slotRule{
	"data_store":      {short: []string{"sqlite"}, types: []string{"sqlite"}},
	"skill_store":     {short: []string{"filesystem", "sqlite"}, types: []string{"filesystem", "sqlite", "postgres"}},
	"local_model":     {types: []string{"ollama", "openai"}, hint: "local_model needs the object form, e.g. {\"type\": \"ollama\", \"config\": {\"defaultModelTag\": \"gemma2:9b\"}}"},
	"agent_connector": {short: []string{"noop"}, types: []string{"noop", "webhook", "filedrop"}},
}

func (p *parser) parseSubstrate(f *File, fl field) {
	fields, err := objectFields(fl.Raw, fl.ValOff)
	if err != nil {
		p.errorf(kindInvalidValue, fl.ValOff, "substrate", "substrate must be an object, not %s", kindOf(fl.Raw))
		return
	}
	for _, sf := range fields {
		p.substrateSlot(f, sf)
	}
}

func (p *parser) substrateSlot(f *File, sf field) {
	var dst *Slot
	switch sf.Key {
	case "data_store":
		dst = &f.Substrate.DataStore
	case "skill_store":
		dst = &f.Substrate.SkillStore
	case "local_model":
		dst = &f.Substrate.LocalModel
	case "agent_connector":
		dst = &f.Substrate.AgentConnector
	default:
		if !strings.HasPrefix(sf.Key, "_") {
			p.errorf(kindUnknownField, sf.KeyOff, "substrate."+sf.Key, "unknown substrate slot %q (known: data_store, skill_store, local_model, agent_connector)", sf.Key)
		}
		return
	}
	*dst = p.slot(sf, slotRules[sf.Key])
	if sf.Key == "local_model" && dst.Type != "" && dst.Type != "custom" {
		p.substrateModel(f, sf, *dst)
	}
}

func (p *parser) slot(sf field, rule slotRule) Slot {
	path := "substrate." + sf.Key
	s := Slot{Set: true, Offset: sf.ValOff}
	switch kindOf(sf.Raw) {
	case "null":
		s.Null = true
	case "a string":
		v, _ := p.str(sf, path, nil)
		if !containsStr(rule.short, v) {
			p.badSlotType(sf, path, v, rule, true)
			return s
		}
		s.Type = v
	case "an object":
		p.slotObject(&s, sf, path, rule)
	default:
		p.errorf(kindInvalidValue, sf.ValOff, path, "%s must be a string, null or an object, not %s", path, kindOf(sf.Raw))
	}
	return s
}

func (p *parser) badSlotType(sf field, path, v string, rule slotRule, short bool) {
	valid := rule.types
	if short {
		valid = rule.short
	}
	msg := "unknown %s type %q"
	args := []any{path, v}
	if len(valid) > 0 {
		msg += " (valid: %s)"
		args = append(args, strings.Join(valid, ", "))
	}
	if short && rule.hint != "" {
		msg += "; " + rule.hint
	}
	p.errorf(kindUnknownSubstrateType, sf.ValOff, path, msg, args...)
}

func (p *parser) slotObject(s *Slot, sf field, path string, rule slotRule) {
	fields, _ := objectFields(sf.Raw, sf.ValOff)
	by := indexFields(fields)
	tf, ok := by["type"]
	if !ok {
		p.errorf(kindMissingField, sf.ValOff, path, "%s object needs a \"type\"", path)
		return
	}
	s.Type, _ = p.str(tf, path+".type", nil)
	if s.Type != "custom" && !containsStr(rule.types, s.Type) {
		p.badSlotType(tf, path, s.Type, slotRule{types: append(append([]string{}, rule.types...), "custom")}, false)
		s.Type = ""
		return
	}
	for _, f := range fields {
		p.slotField(s, f, path+"."+f.Key)
	}
	if s.Type == "custom" && s.Module == "" {
		p.errorf(kindMissingField, sf.ValOff, path, "%s of type custom needs a \"module\"", path)
	}
}

func (p *parser) slotField(s *Slot, f field, path string) {
	switch f.Key {
	case "type":
	case "module":
		s.Module, _ = p.str(f, path, nil)
	case "export":
		s.Export, _ = p.str(f, path, nil)
	case "config":
		if m, ok := p.decodeAny(f.Raw, f.ValOff, path, nil).(map[string]any); ok {
			s.Config = m
		} else if !isNull(f.Raw) {
			p.errorf(kindInvalidValue, f.ValOff, path, "%s must be an object, not %s", path, kindOf(f.Raw))
		}
	default:
		if !strings.HasPrefix(f.Key, "_") {
			p.warnf(kindUnknownField, f.KeyOff, path, "unknown field %q", f.Key)
		}
	}
	if s.Type == "custom" && s.Export == "" {
		s.Export = "default"
	}
}

// substrateModel turns substrate.local_model into the "default" model plus
// one model per entry of config.models (alias -> tag).
func (p *parser) substrateModel(f *File, sf field, s Slot) {
	path := "substrate.local_model.config"
	base := ModelSpec{Name: "default", Type: s.Type, Offset: sf.ValOff}
	base.Model = firstString(s.Config, "defaultModelTag", "model")
	base.BaseURL = firstString(s.Config, "baseUrl", "baseURL", "base_url")
	base.APIKey = firstString(s.Config, "apiKey", "api_key")
	base.MaxTokens = intFrom(s.Config["maxTokens"])
	base.Timeout = time.Duration(intFrom(s.Config["timeoutMs"])) * time.Millisecond
	if base.Model == "" {
		p.errorf(kindMissingField, sf.ValOff, path, "substrate.local_model (%s) needs config.defaultModelTag: the model is too important to default silently", s.Type)
		return
	}
	p.addModel(f, base)
	aliases, _ := s.Config["models"].(map[string]any)
	for _, name := range sortedKeys(aliases) {
		tag, ok := aliases[name].(string)
		if !ok {
			p.errorf(kindInvalidValue, sf.ValOff, path+".models."+name, "model alias %q must map to a model tag string", name)
			continue
		}
		m := base
		m.Name, m.Model = name, tag
		p.addModel(f, m)
	}
	if f.DefaultModel == "" {
		f.DefaultModel = "default"
	}
}

func (p *parser) addModel(f *File, m ModelSpec) {
	if f.Model(m.Name) != nil {
		p.errorf(kindDuplicateKey, m.Offset, "localModels."+m.Name, "local model %q is defined twice", m.Name)
		return
	}
	f.Models = append(f.Models, &m)
}

var modelTypes = map[string]string{
	"ollama": "ollama", "OllamaLocalModel": "ollama",
	"openai": "openai", "OpenAILocalModel": "openai", "OpenAiLocalModel": "openai",
}

// parseLocalModels parses "localModels": {name: {type, model, ...}}.
func (p *parser) parseLocalModels(f *File, fl field) {
	fields, err := objectFields(fl.Raw, fl.ValOff)
	if err != nil {
		p.errorf(kindInvalidValue, fl.ValOff, "localModels", "localModels must be an object, not %s", kindOf(fl.Raw))
		return
	}
	for _, mf := range fields {
		if !strings.HasPrefix(mf.Key, "_") {
			p.localModel(f, mf)
		}
	}
}

func (p *parser) localModel(f *File, mf field) {
	path := "localModels." + mf.Key
	fields, err := objectFields(mf.Raw, mf.ValOff)
	if err != nil {
		p.errorf(kindInvalidValue, mf.ValOff, path, "%s must be an object, not %s", path, kindOf(mf.Raw))
		return
	}
	m := ModelSpec{Name: mf.Key, Type: "ollama", Offset: mf.KeyOff}
	for _, fl := range fields {
		p.localModelField(&m, fl, path+"."+fl.Key)
	}
	if m.Model == "" {
		p.errorf(kindMissingField, mf.ValOff, path, "local model %q needs a \"model\" tag", mf.Key)
		return
	}
	p.addModel(f, m)
}

func (p *parser) localModelField(m *ModelSpec, fl field, path string) {
	switch fl.Key {
	case "type", "class":
		t, _ := p.str(fl, path, nil)
		if m.Type = modelTypes[t]; m.Type == "" {
			p.errorf(kindUnknownSubstrateType, fl.ValOff, path, "unknown local model type %q (valid: ollama, openai)", t)
		}
	case "model", "defaultModelTag":
		m.Model, _ = p.str(fl, path, nil)
	case "baseUrl", "baseURL", "base_url":
		m.BaseURL, _ = p.str(fl, path, nil)
	case "apiKey", "api_key":
		m.APIKey, _ = p.str(fl, path, nil)
	case "maxTokens":
		m.MaxTokens = p.nonNegInt(fl, path)
	case "timeoutMs":
		m.Timeout = p.millis(fl, path)
	default:
		if !strings.HasPrefix(fl.Key, "_") {
			p.warnf(kindUnknownField, fl.KeyOff, path, "unknown local model field %q", fl.Key)
		}
	}
}

// finishModels picks the default model: "default" when defined, else the
// first model.
func (p *parser) finishModels(f *File) {
	if f.Model("default") != nil {
		f.DefaultModel = "default"
	} else if f.DefaultModel == "" && len(f.Models) > 0 {
		f.DefaultModel = f.Models[0].Name
	}
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

func intFrom(v any) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case float64:
		return int(x)
	}
	return 0
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
