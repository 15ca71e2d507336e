package connectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// field is one member of a JSON object with the absolute byte offsets of
// its key and value.
type field struct {
	Key    string
	KeyOff int
	ValOff int
	Raw    json.RawMessage
}

// objectFields decodes raw (which starts at absolute offset base) as a JSON
// object and returns its members in source order.
func objectFields(raw []byte, base int) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErr(raw, base, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, &posError{Off: base + skipSpace(raw, 0), Msg: "expected a JSON object"}
	}
	var out []field
	for dec.More() {
		f, err := nextField(dec, raw, base)
		if err != nil {
			return out, err
		}
		out = append(out, f)
	}
	if _, err := dec.Token(); err != nil {
		return out, jsonErr(raw, base, err)
	}
	return out, nil
}

func nextField(dec *json.Decoder, raw []byte, base int) (field, error) {
	keyOff := skipSep(raw, int(dec.InputOffset()))
	tok, err := dec.Token()
	if err != nil {
		return field{}, jsonErr(raw, base, err)
	}
	key, _ := tok.(string)
	valOff := skipSep(raw, int(dec.InputOffset()))
	var val json.RawMessage
	if err := dec.Decode(&val); err != nil {
		return field{}, jsonErr(raw, base, err)
	}
	return field{Key: key, KeyOff: base + keyOff, ValOff: base + valOff, Raw: val}, nil
}

// arrayItems decodes raw as a JSON array, returning each element with its
// absolute offset.
func arrayItems(raw []byte, base int) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErr(raw, base, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, &posError{Off: base + skipSpace(raw, 0), Msg: "expected a JSON array"}
	}
	var out []field
	for dec.More() {
		off := skipSep(raw, int(dec.InputOffset()))
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return out, jsonErr(raw, base, err)
		}
		out = append(out, field{KeyOff: base + off, ValOff: base + off, Raw: val})
	}
	return out, nil
}

// skipSep skips whitespace, commas and colons from i.
func skipSep(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n', ',', ':':
			i++
		default:
			return i
		}
	}
	return i
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// posError is a JSON error at an absolute byte offset.
type posError struct {
	Off int
	Msg string
}

func (e *posError) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

func jsonErr(raw []byte, base int, err error) error {
	var se *json.SyntaxError
	switch {
	case asSyntax(err, &se):
		return &posError{Off: base + int(se.Offset), Msg: "invalid JSON: " + se.Error()}
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return &posError{Off: base + len(raw), Msg: "invalid JSON: unexpected end of input"}
	}
	return &posError{Off: base, Msg: "invalid JSON: " + err.Error()}
}

func asSyntax(err error, se **json.SyntaxError) bool {
	s, ok := err.(*json.SyntaxError)
	if ok {
		*se = s
	}
	return ok
}

// kindOf names the JSON kind of raw for error messages.
func kindOf(raw []byte) string {
	i := skipSpace(raw, 0)
	if i >= len(raw) {
		return "nothing"
	}
	switch raw[i] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func isNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }
