package lint

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/skillscript/skillc/check/types"
)

// The JSON schemas of the built-in result types: dataReadType and
// runResultType are built as Go values and must be what these schemas
// parse to.
var (
	dataReadSchema = []byte(`{"type": "object", "required": ["items", "count", "mode"], "properties": {
		"items": {"type": "array", "description": "the matching records", "items": {"type": "object", "additionalProperties": true, "properties": {
			"id": {"type": "string"}, "summary": {"type": "string", "description": "first line of the content"},
			"detail": {"type": "string", "description": "the full content"}, "content": {"type": "string", "description": "the full content"},
			"tags": {"type": "array", "items": {"type": "string"}}, "metadata": {"type": "object", "additionalProperties": true},
			"recipients": {"type": "array", "items": {"type": "string"}},
			"created_at": {"type": "string", "description": "RFC 3339"}, "expires_at": {"type": ["null", "string"], "description": "RFC 3339, null for durable records"},
			"score": {"type": "number", "description": "relevance when the query ranked results, else 0"}}}},
		"count": {"type": "integer", "description": "number of records"},
		"mode": {"type": "string", "description": "the query mode"}}}`)
	runResultSchema = []byte(`{"type": "object", "properties": {
	"skill": {"type": "string", "description": "the child skill's name"},
	"status": {"type": "string", "description": "ok or failed"},
	"mechanical": {"type": "boolean"},
	"final_vars": {"type": "object", "additionalProperties": true, "description": "the child's # Returns: values"},
	"outputs": {"type": "object", "description": "the produced output", "properties": {
		"text": {"type": "string", "description": "the canonical output"},
		"kinds": {"type": "array", "items": {"type": "string"}},
		"files": {"type": "array", "items": {"type": "string"}}}},
	"emissions": {"type": "array", "items": {"type": "string"}},
	"transcript": {"type": "array"}, "errors": {"type": "array"}, "fallbacks": {"type": "array"},
	"target_order": {"type": "array", "items": {"type": "string"}},
	"else_executed": {"type": "array", "items": {"type": "string"}},
	"agent_delivery_receipts": {"type": "array"},
	"deadline_exceeded": {"type": "boolean"},
	"uncertain_effects": {"type": "array"},
	"notices": {"type": "array", "items": {"type": "string"}}}}`)
)

// TestBuiltinResultTypes holds the built types and their schemas together.
func TestBuiltinResultTypes(t *testing.T) {
	for _, c := range []struct {
		name   string
		got    *types.Type
		schema []byte
	}{
		{"data_read", dataReadType(), dataReadSchema},
		{"execute_skill", runResultType(), runResultSchema},
	} {
		want := types.FromSchema(c.schema)
		if want == nil {
			t.Fatalf("%s: the schema does not parse", c.name)
		}
		if !reflect.DeepEqual(c.got, want) {
			g, _ := json.MarshalIndent(c.got, "", " ")
			w, _ := json.MarshalIndent(want, "", " ")
			t.Errorf("%s: built type\n%s\nthe schema gives\n%s", c.name, g, w)
		}
	}
}
