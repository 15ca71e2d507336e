package config

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// jsonPos records where a member sits in a JSON document: the byte offsets of
// its key (the value's own offset for array elements and the root) and of its
// value.
type jsonPos struct {
	Key, Value int
}

// indexJSON maps the JSON pointer of every value in data ("" for the root,
// "/lint/severity/undeclared-var", "/shellAllowlist/0") to its position. The
// document must already be known to be valid JSON; on a decoding error the
// index built so far is returned.
func indexJSON(data []byte) map[string]jsonPos {
	ix := &indexer{data: data, dec: json.NewDecoder(bytes.NewReader(data)), pos: map[string]jsonPos{}}
	_ = ix.value("", -1)
	return ix.pos
}

// indexer walks the token stream of a document.
type indexer struct {
	data []byte
	dec  *json.Decoder
	pos  map[string]jsonPos
}

// next returns the offset of the next token, skipping whitespace and the
// separators the decoder has not consumed yet.
func (ix *indexer) next() int {
	off := int(ix.dec.InputOffset())
	for off < len(ix.data) && strings.IndexByte(" \t\r\n,:", ix.data[off]) >= 0 {
		off++
	}
	return off
}

// value indexes the value at path; key is the offset of its key, or -1.
func (ix *indexer) value(path string, key int) error {
	start := ix.next()
	if key < 0 {
		key = start
	}
	ix.pos[path] = jsonPos{Key: key, Value: start}
	tok, err := ix.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		return ix.object(path)
	case json.Delim('['):
		return ix.array(path)
	}
	return nil
}

// object indexes the members of an object whose '{' has been read.
func (ix *indexer) object(path string) error {
	for ix.dec.More() {
		key := ix.next()
		tok, err := ix.dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		if err := ix.value(path+"/"+escapePointer(name), key); err != nil {
			return err
		}
	}
	_, err := ix.dec.Token()
	return err
}

// array indexes the elements of an array whose '[' has been read.
func (ix *indexer) array(path string) error {
	for i := 0; ix.dec.More(); i++ {
		if err := ix.value(path+"/"+strconv.Itoa(i), -1); err != nil {
			return err
		}
	}
	_, err := ix.dec.Token()
	return err
}

// escapePointer escapes a key for use in a JSON pointer.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// displayPath turns a JSON pointer into the dotted form used in messages:
// "/lint/severity/x" becomes "lint.severity.x", "/a/0" becomes "a[0]".
func displayPath(ptr string) string {
	var b strings.Builder
	for i, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(part); err == nil && i > 0 {
			b.WriteString("[" + part + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(part)
	}
	return b.String()
}
