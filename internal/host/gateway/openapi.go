package gateway

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// operation is one HTTP endpoint of the gateway: its path, the request
// and response types the OpenAPI document is generated from.
type operation struct {
	path, id, summary string
	req, resp         reflect.Type
}

var operations = []operation{
	{"/gateway/discover", "skills_discover", "Rank the skills that solve a job (BM25 plus role, status, tag and read-only tiers); every result is explained.", reflect.TypeFor[DiscoverRequest](), reflect.TypeFor[DiscoverResponse]()},
	{"/gateway/list", "skills_list", "List skills by domain, role, status and kind, ordered by id, one page at a time.", reflect.TypeFor[ListRequest](), reflect.TypeFor[ListResponse]()},
	{"/gateway/attach", "skills_attach", "Apply an attach|both skill to a recorded run, its output or transcript, or an artifact; validated before anything runs.", reflect.TypeFor[AttachRequest](), reflect.TypeFor[AttachResult]()},
	{"/gateway/run", "skills_run", "Run a skill directly (skillscripts run and are traced; packages return their load receipt); invocation=attach skills are refused.", reflect.TypeFor[RunRequest](), reflect.TypeFor[RunResponse]()},
}

// OpenAPI returns the OpenAPI 3.1 document of the HTTP endpoints, with
// the request and response schemas generated from the Go types the core,
// the CLI and the MCP tools share.
func OpenAPI(version string) ([]byte, error) {
	schemas := map[string]any{}
	paths := map[string]any{}
	errSchema, err := jsonschema.ForType(reflect.TypeFor[errorBody](), nil)
	if err != nil {
		return nil, err
	}
	schemas["Error"] = errSchema
	errRef := map[string]any{"description": "refused: the reason says why; nothing ran", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}}
	for _, op := range operations {
		for _, t := range []reflect.Type{op.req, op.resp} {
			s, err := jsonschema.ForType(t, &jsonschema.ForOptions{IgnoreInvalidTypes: true})
			if err != nil {
				return nil, fmt.Errorf("schema of %s: %w", t.Name(), err)
			}
			schemas[t.Name()] = s
		}
		paths[op.path] = map[string]any{"post": map[string]any{
			"operationId": op.id,
			"summary":     op.summary,
			"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + op.req.Name()}}}},
			"responses": map[string]any{
				"200": map[string]any{"description": "OK", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + op.resp.Name()}}}},
				"400": errRef, "404": errRef, "409": errRef, "422": errRef,
			},
		}}
	}
	doc := map[string]any{
		"openapi":    "3.1.0",
		"info":       map[string]any{"title": "skillc skill gateway", "version": version},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas},
	}
	return json.MarshalIndent(doc, "", "  ")
}
