package types

import (
	"encoding/json"
	"testing"
)

func TestFromSchema(t *testing.T) {
	for _, c := range []struct {
		schema, want string
		closed       bool
	}{
		{`{"type": "string"}`, "string", false},
		{`{"type": "integer"}`, "integer", false},
		{`{"type": ["null", "array"], "items": {"type": "number"}}`, "array of number", false},
		{`{"type": "object", "properties": {"b": {"type": "string"}, "a": {}}}`, "object {a, b}", true},
		{`{"type": "object", "properties": {"a": {}}, "additionalProperties": true}`, "object {a}", false},
		{`{"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}}`, "object {a}", false},
		{`{"type": "object", "properties": {"a": {}}, "patternProperties": {"^x": {}}}`, "object {a}", false},
		{`{"type": "object", "additionalProperties": false}`, "object", true},
		{`{"type": "object"}`, "object", false},
		{`{"type": "object", "properties": {"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{}}}`, "object {a, b, c, d, e, f, …}", true},
		// no single type: unknown, never guessed
		{`{"anyOf": [{"type": "string"}, {"type": "number"}]}`, "unknown", false},
		{`{"$ref": "#/$defs/x"}`, "unknown", false},
		{`{"type": ["string", "number"]}`, "unknown", false},
		{`{}`, "unknown", false},
		{`not json`, "unknown", false},
		{``, "unknown", false},
	} {
		ty := FromSchema(json.RawMessage(c.schema))
		if got := ty.String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.schema, got, c.want)
		}
		if ty != nil && ty.Closed != c.closed {
			t.Errorf("%s: closed %v", c.schema, ty.Closed)
		}
	}
	ty := FromSchema(json.RawMessage(`{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "description": "the id"}, "tags": {"type": "array", "items": {"type": "string"}}}}`))
	p, ok := ty.Field("id")
	if !ok || !p.Required || p.Type.Kind != Integer || p.Type.Description != "the id" {
		t.Errorf("field id = %+v", p)
	}
	if p, ok := ty.Field("tags"); !ok || p.Required || p.Type.Items.Kind != String {
		t.Errorf("field tags = %+v", p)
	}
	if _, ok := ty.Field("nope"); ok {
		t.Error("field nope found")
	}
}

func TestCompatible(t *testing.T) {
	k := func(k Kind) *Type { return &Type{Kind: k} }
	for _, c := range []struct {
		want, have *Type
		ok         bool
	}{
		{k(String), k(String), true},
		{k(Number), k(Integer), true},
		{k(Integer), k(Number), true},
		{k(String), k(Integer), false},
		{k(Integer), k(String), false},
		{k(Array), k(Object), false},
		{nil, k(String), true},
		{k(String), nil, true},
	} {
		if Compatible(c.want, c.have) != c.ok {
			t.Errorf("Compatible(%s, %s) != %v", c.want, c.have, c.ok)
		}
	}
}

// FuzzFromSchema: any text gives a type or nil, without panic, and a
// deeply nested schema stops at maxDepth.
func FuzzFromSchema(f *testing.F) {
	f.Add(`{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}}}}`)
	f.Add(`{"type": ["null", "string"]}`)
	f.Fuzz(func(t *testing.T, s string) {
		ty := FromSchema(json.RawMessage(s))
		_ = ty.String()
		_ = ty.FieldNames()
	})
}
