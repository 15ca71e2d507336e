package mcp

import (
	"encoding/json"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// decodeResult turns a tools/call result into a skill value or a
// *contract.ToolError.
func decodeResult(connector, tool string, res *sdk.CallToolResult) (any, error) {
	if res.IsError {
		return nil, &contract.ToolError{Connector: connector, Tool: tool, Message: joinText(res.Content), Result: normalize(res.StructuredContent)}
	}
	if res.StructuredContent != nil {
		return structured(res), nil
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
	if err := value.DecodeJSONNumbers([]byte(t), &v); err != nil {
		return text
	}
	return v // numbers are json.Number: Normalize keeps their text
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
		if value.DecodeJSONNumbers(b, &v) == nil {
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
	if value.DecodeJSONNumbers(b, &out) != nil {
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
		if t.OutputSchema != nil {
			if b, err := json.Marshal(t.OutputSchema); err == nil {
				ct.OutputSchema = b
			}
		}
		out = append(out, ct)
	}
	return out
}

// structured returns the structured content of a result. The SDK decodes
// it with numbers as float64, which loses the text of 2.50 or a 19-digit
// id; most servers also send the same value as JSON text content, so when
// that text decodes to the same value, its decoding (numbers as written)
// is used instead.
func structured(res *sdk.CallToolResult) any {
	if allText(res.Content) && len(res.Content) == 1 {
		var v any
		if value.DecodeJSONNumbers([]byte(strings.TrimSpace(joinText(res.Content))), &v) == nil && sameJSON(v, res.StructuredContent) {
			return v
		}
	}
	return normalize(res.StructuredContent)
}

// sameJSON reports whether a (decoded with json.Number) and b (decoded
// with float64) are the same JSON value.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		f, err := x.Float64()
		g, ok := b.(float64)
		return err == nil && ok && f == g
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}
