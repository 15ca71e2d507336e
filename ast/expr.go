package ast

import "strings"

// StringKind says how a string literal was quoted.
type StringKind int

// The string kinds.
const (
	DoubleQuoted StringKind = iota
	SingleQuoted
	TripleQuoted
)

// Text is a sequence of literal text and substitutions: the contents of a
// string, a bare word, a template line or an # Output: target.
type Text struct {
	Range
	Parts []TextPart
}

func (*Text) aNode() {}

// TextPart is a part of a Text: *Lit, *Subst or *SecretRef.
type TextPart interface {
	Node
	textPart()
}

// Lit is literal text inside a Text. Value has escapes decoded (and, for
// triple-quoted strings, the dedent applied); Range covers the raw source.
type Lit struct {
	Range
	Value string
}

func (*Lit) aNode()    {}
func (*Lit) textPart() {}

// Subst is a substitution "${ROOT.path.0|filter:"arg"|filter}" or the
// legacy "$(ROOT)" shape.
type Subst struct {
	Range
	Legacy  bool // $(...) form
	Root    *Ident
	Path    []*PathSeg
	Filters []*Filter
	Bad     string // non-empty when the inside could not be parsed
}

func (*Subst) aNode()    {}
func (*Subst) textPart() {}
func (*Subst) exprNode() {}

// PathSeg is ".field" or ".0" in a substitution path.
type PathSeg struct {
	Range
	Name  string
	Index bool // all digits
}

func (*PathSeg) aNode() {}

// Filter is "|name" or "|name:arg".
type Filter struct {
	Range
	Name *Ident
	Arg  *FilterArg // nil when absent
}

func (*Filter) aNode() {}

// FilterArg is a filter argument; Quoted is false for the bare form
// (|head:5), which is accepted and diagnosed.
type FilterArg struct {
	Range
	Value  string
	Quoted bool
	// Text is the argument parsed as text when it holds a substitution
	// (|contains:"${KW}"), interpolated when the filter runs; nil for a
	// plain argument.
	Text *Text
}

func (*FilterArg) aNode() {}

// SecretRef is a "{{secret.NAME}}" marker. Name is empty (and Bad set) when
// the marker is not a clean literal.
type SecretRef struct {
	Range
	Name string
	Bad  string // raw inside when not a plain identifier
}

func (*SecretRef) aNode()    {}
func (*SecretRef) textPart() {}
func (*SecretRef) exprNode() {}

// StringLit is a quoted string; its contents are a Text.
type StringLit struct {
	Range
	Kind  StringKind
	Raw   string // source including quotes
	Value *Text
}

func (*StringLit) aNode()    {}
func (*StringLit) exprNode() {}

// NumberLit is a number.
type NumberLit struct {
	Range
	Raw   string
	Value float64
}

func (*NumberLit) aNode()    {}
func (*NumberLit) exprNode() {}

// BoolLit is true or false.
type BoolLit struct {
	Range
	Value bool
}

func (*BoolLit) aNode()    {}
func (*BoolLit) exprNode() {}

// NullLit is null.
type NullLit struct {
	Range
}

func (*NullLit) aNode()    {}
func (*NullLit) exprNode() {}

// BareWord is an unquoted value (mode=fts, url=https://x, query=a-${B}).
type BareWord struct {
	Range
	Raw   string
	Value *Text
}

func (*BareWord) aNode()    {}
func (*BareWord) exprNode() {}

// ListLit is "[a, b, ...]".
type ListLit struct {
	Range
	Elems []Expr
}

func (*ListLit) aNode()    {}
func (*ListLit) exprNode() {}

// ObjectLit is "{key: value, ...}" (JSON-like).
type ObjectLit struct {
	Range
	Entries []*ObjEntry
}

func (*ObjectLit) aNode()    {}
func (*ObjectLit) exprNode() {}

// ObjEntry is one key: value pair of an object literal.
type ObjEntry struct {
	Range
	Key   Expr // *StringLit or *BareWord
	Value Expr
}

func (*ObjEntry) aNode() {}

// KeyName returns the entry's key text.
func (e *ObjEntry) KeyName() string {
	switch k := e.Key.(type) {
	case *StringLit:
		return k.Value.Plain()
	case *BareWord:
		return k.Raw
	}
	return ""
}

// Plain returns the text with substitutions left in their source form.
func (t *Text) Plain() string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range t.Parts {
		if l, ok := p.(*Lit); ok {
			b.WriteString(l.Value)
		} else {
			b.WriteByte(0)
		}
	}
	return b.String()
}

// Substs returns the substitutions of t in order.
func (t *Text) Substs() []*Subst {
	if t == nil {
		return nil
	}
	var out []*Subst
	for _, p := range t.Parts {
		if s, ok := p.(*Subst); ok {
			out = append(out, s)
		}
	}
	return out
}

// IsLiteral reports whether t has no substitutions or secret markers.
func (t *Text) IsLiteral() bool {
	if t == nil {
		return true
	}
	for _, p := range t.Parts {
		if _, ok := p.(*Lit); !ok {
			return false
		}
	}
	return true
}

// LitValue returns the decoded text when t is literal, and false otherwise.
func (t *Text) LitValue() (string, bool) {
	if !t.IsLiteral() {
		return "", false
	}
	var b strings.Builder
	if t != nil {
		for _, p := range t.Parts {
			b.WriteString(p.(*Lit).Value)
		}
	}
	return b.String(), true
}
