// Package types is the static type of a skill value, as far as a JSON
// Schema tells it: the result of a tool that declares an outputSchema,
// the fields of that result, the items of its lists. It knows nothing of
// skills or tools; lint resolves a reference to a Type and the language
// server shows it. A nil *Type is "unknown": no check ever reports on it.
package types

import (
	"encoding/json"
	"sort"
	"strings"
)

// Kind is the JSON type of a value.
type Kind int

// The kinds. Integer is a Number whose schema says "integer".
const (
	Unknown Kind = iota
	Object
	Array
	String
	Number
	Integer
	Boolean
	Null
)

var kindNames = [...]string{"unknown", "object", "array", "string", "number", "integer", "boolean", "null"}

// String names the kind as JSON Schema does.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// Type is a value's type.
type Type struct {
	Kind        Kind
	Description string
	// Props are an object's declared properties, sorted by name.
	Props []*Prop
	// Closed reports that an object has no properties beyond Props: its
	// schema lists properties and does not allow others explicitly
	// ("additionalProperties": true or a schema). Only a closed object's
	// missing field is reported.
	Closed bool
	// Items is an array's item type (nil when unknown).
	Items *Type
	// Nullable reports a schema type list of null and one other type
	// (["null", "array"]): the value may also be null.
	Nullable bool
}

// Prop is one declared property of an object.
type Prop struct {
	Name     string
	Type     *Type // nil when the property's schema gives no single type
	Required bool
}

// maxDepth bounds the schema walk (recursive $refs, deep nesting).
const maxDepth = 32

// FromSchema builds the type a JSON Schema describes; nil when the schema
// is absent, malformed or does not pin one JSON type (anyOf, oneOf, a type
// list, a $ref), so that nothing is ever guessed.
func FromSchema(raw json.RawMessage) *Type {
	if len(raw) == 0 {
		return nil
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	return fromMap(s, 0)
}

func fromMap(s map[string]any, depth int) *Type {
	if s == nil || depth > maxDepth {
		return nil
	}
	for _, k := range []string{"$ref", "anyOf", "oneOf", "allOf", "not", "if"} {
		if _, ok := s[k]; ok {
			return nil
		}
	}
	name, nullable := typeName(s["type"])
	t := &Type{Nullable: nullable}
	t.Description, _ = s["description"].(string)
	switch name {
	case "object":
		t.Kind = Object
		props, _ := s["properties"].(map[string]any)
		req := map[string]bool{}
		if list, ok := s["required"].([]any); ok {
			for _, r := range list {
				if n, ok := r.(string); ok {
					req[n] = true
				}
			}
		}
		for n, v := range props {
			sub, _ := v.(map[string]any)
			t.Props = append(t.Props, &Prop{Name: n, Type: fromMap(sub, depth+1), Required: req[n]})
		}
		sort.Slice(t.Props, func(i, j int) bool { return t.Props[i].Name < t.Props[j].Name })
		switch ap := s["additionalProperties"].(type) {
		case nil:
			t.Closed = len(props) > 0
		case bool:
			t.Closed = !ap
		default: // a schema: any other name is allowed
			t.Closed = false
		}
		if _, ok := s["patternProperties"]; ok {
			t.Closed = false
		}
	case "array":
		t.Kind = Array
		if items, ok := s["items"].(map[string]any); ok {
			t.Items = fromMap(items, depth+1)
		}
	case "string":
		t.Kind = String
	case "number":
		t.Kind = Number
	case "integer":
		t.Kind = Integer
	case "boolean":
		t.Kind = Boolean
	case "null":
		t.Kind = Null
	default:
		return nil
	}
	return t
}

// typeName reads a schema's "type": a name, or a list of "null" and one
// name (nullable is then true); "" for anything else.
func typeName(v any) (name string, nullable bool) {
	switch t := v.(type) {
	case string:
		return t, false
	case []any:
		var others []string
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return "", false
			}
			if s == "null" {
				nullable = true
			} else {
				others = append(others, s)
			}
		}
		if len(others) == 1 {
			return others[0], nullable
		}
	}
	return "", false
}

// Field returns the declared property name of an object type.
func (t *Type) Field(name string) (*Prop, bool) {
	if t == nil || t.Kind != Object {
		return nil, false
	}
	i := sort.Search(len(t.Props), func(i int) bool { return t.Props[i].Name >= name })
	if i < len(t.Props) && t.Props[i].Name == name {
		return t.Props[i], true
	}
	return nil, false
}

// FieldNames returns an object type's property names, sorted.
func (t *Type) FieldNames() []string {
	if t == nil {
		return nil
	}
	out := make([]string, len(t.Props))
	for i, p := range t.Props {
		out[i] = p.Name
	}
	return out
}

// IsNumeric reports whether t is a number or an integer.
func (t *Type) IsNumeric() bool { return t != nil && (t.Kind == Number || t.Kind == Integer) }

// String is a short display of t: "string", "array of object", an object
// as "object {a, b, …}" with at most six property names.
func (t *Type) String() string {
	if t == nil {
		return "unknown"
	}
	switch t.Kind {
	case Array:
		if t.Items == nil {
			return "array"
		}
		return "array of " + t.Items.String()
	case Object:
		if len(t.Props) == 0 {
			return "object"
		}
		names := t.FieldNames()
		if len(names) > 6 {
			names = append(names[:6], "…")
		}
		return "object {" + strings.Join(names, ", ") + "}"
	}
	return t.Kind.String()
}

// Compatible reports whether a value of type have can be passed where a
// schema asks for want: the same kind, or an integer where a number is
// asked. Unknown on either side is compatible (never guess).
func Compatible(want, have *Type) bool {
	if want == nil || have == nil || want.Kind == Unknown || have.Kind == Unknown {
		return true
	}
	if want.Kind == have.Kind {
		return true
	}
	if want.Kind == Number && have.Kind == Integer {
		return true
	}
	// a whole number can be an integer; the schema of have cannot tell
	return want.Kind == Integer && have.Kind == Number
}
