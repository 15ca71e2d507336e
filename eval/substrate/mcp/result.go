package mcp

import (
	"encoding/json"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/eval/contract"
)

// decodeResult turns a tools/call result into a skill value or a
// *contract.ToolError.
func decodeResult(connector, tool string, res *sdk.CallToolResult) (any, error) {
	if res.IsError {
		return nil, &contract.ToolError{Connector: connector, Tool: tool, Message: joinText(res.Content), Result: normalize(res.StructuredContent)}
	}
	if res.StructuredContent != nil {
		return normalize(res.StructuredContent), nil
	}
	if allText(res.Content) {
		return textValue(joinText(res.Content)), nil
	}
	return contentValues(res.Content), nil
}

// textValue JSON-decodes text when it is a JSON object or array (or other
// JSON value), and returns it unchanged otherwise.
func textValue(text string) any {
	t := strings.TrimSpace(text)
	if t == "" || !json.Valid([]byte(t)) {
		return text
	}
	var v any
	if err := json.Unmarshal([]byte(t), &v); err != nil {
		return text
	}
	return v
}

func allText(cs []sdk.Content) bool {
	for _, c := range cs {
		if _, ok := c.(*sdk.TextContent); !ok {
			return false
		}
	}
	return true
}

func joinText(cs []sdk.Content) string {
	var parts []string
	for _, c := range cs {
		if t, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// contentValues renders mixed content as a list of generic objects.
func contentValues(cs []sdk.Content) []any {
	out := make([]any, 0, len(cs))
	for _, c := range cs {
		b, err := json.Marshal(c)
		if err != nil {
			continue
		}
		var v any
		if json.Unmarshal(b, &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// normalize converts a decoded structured value to plain JSON types.
func normalize(v any) any {
	if v == nil {
		return nil
	}
	switch v.(type) {
	case map[string]any, []any, string, float64, bool:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// toolsFromSDK converts discovered tools, marking those named in mutating.
func toolsFromSDK(ts []*sdk.Tool) []contract.Tool {
	out := make([]contract.Tool, 0, len(ts))
	for _, t := range ts {
		ct := contract.Tool{Name: t.Name, Description: t.Description}
		if a := t.Annotations; a != nil && (a.ReadOnlyHint || (a.DestructiveHint != nil && *a.DestructiveHint)) {
			ct.Annotations = &contract.ToolAnnotations{ReadOnlyHint: a.ReadOnlyHint, DestructiveHint: a.DestructiveHint != nil && *a.DestructiveHint}
		}
		if t.InputSchema != nil {
			if b, err := json.Marshal(t.InputSchema); err == nil {
				ct.InputSchema = b
			}
		}
		out = append(out, ct)
	}
	return out
}
