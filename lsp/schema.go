package lsp

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaProp is one property of a tool's input schema.
type schemaProp struct {
	Name     string
	Type     string
	Doc      string
	Required bool
}

// schemaProps lists the top-level properties of a JSON Schema, required
// ones first, then by name.
func schemaProps(raw json.RawMessage) []schemaProp {
	if len(raw) == 0 {
		return nil
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(raw, &sch); err != nil {
		return nil
	}
	req := map[string]bool{}
	for _, r := range sch.Required {
		req[r] = true
	}
	var out []schemaProp
	for name, p := range sch.Properties {
		sp := schemaProp{Name: name, Required: req[name]}
		if p != nil {
			sp.Doc = p.Description
			sp.Type = p.Type
			if sp.Type == "" && len(p.Types) > 0 {
				sp.Type = p.Types[0]
			}
		}
		out = append(out, sp)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Required != out[j].Required {
			return out[i].Required
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// prettyJSON indents raw JSON, or returns it unchanged when invalid.
func prettyJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
