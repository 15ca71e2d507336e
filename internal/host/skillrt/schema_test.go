package skillrt

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaOf infers the JSON schema of T the way the MCP SDK does for tool
// inputs and outputs.
func schemaOf[T any](t *testing.T) string {
	t.Helper()
	s, err := jsonschema.For[T](nil)
	if err != nil {
		t.Fatalf("%T: %v", *new(T), err)
	}
	if _, err := s.Resolve(nil); err != nil {
		t.Fatalf("%T: resolve: %v", *new(T), err)
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// TestToolSchemas: every tool input and output struct has an inferable
// schema; the required fields are the ones without omitempty, and the
// jsonschema descriptions reach the schema.
func TestToolSchemas(t *testing.T) {
	checks := []struct {
		schema string
		want   []string
	}{
		{schemaOf[LoadInput](t), []string{`"required":["names"]`, `names of the skills to load`}},
		{schemaOf[UnloadInput](t), []string{`"all"`, `"names"`}},
		{schemaOf[ReadInput](t), []string{`"required":["path"]`}},
		{schemaOf[RunScriptInput](t), []string{`"required":["path"]`, `"args"`, `"env"`}},
		{schemaOf[LoadOutput](t), []string{`"active_skills"`, `"root_dir"`, `"abs_path"`}},
		{schemaOf[UnloadOutput](t), []string{`"active_skills"`}},
		{schemaOf[ReadOutput](t), []string{`"mime_type"`, `"encoding"`}},
		{schemaOf[RunScriptOutput](t), []string{`"exit_code"`, `"timed_out"`, `"duration_ms"`, `"truncated"`}},
	}
	for _, c := range checks {
		for _, w := range c.want {
			if !strings.Contains(c.schema, w) {
				t.Errorf("schema lacks %s: %s", w, c.schema)
			}
		}
	}
}
