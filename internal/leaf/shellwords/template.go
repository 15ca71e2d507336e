package shellwords

import "strings"

// Piece is one piece of a command template: literal command text, or a
// hole standing for a substituted value. The value of a hole (Text) is
// never tokenized: it lands, byte for byte, inside the one word the hole
// sits in, whatever quotes or white space it contains.
type Piece struct {
	Text string
	Hole bool
}

// Part is a piece of a Word: literal text (quotes removed) or a hole,
// with the index of the hole in the template.
type Part struct {
	Text string
	Hole bool
	// Index is the position of the hole in the template's pieces (for
	// diagnostics); -1 for literal text.
	Index int
}

// Word is one argv entry of a tokenized template.
type Word struct {
	Parts []Part
}

// String returns the word with its holes filled in.
func (w Word) String() string {
	if len(w.Parts) == 1 {
		return w.Parts[0].Text
	}
	var b strings.Builder
	for _, p := range w.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Literal returns the word when it contains no hole.
func (w Word) Literal() (string, bool) {
	for _, p := range w.Parts {
		if p.Hole {
			return "", false
		}
	}
	return w.String(), true
}

// Whole reports whether the word is exactly one hole (quoted or not), so
// the argument is the substituted value and nothing else.
func (w Word) Whole() bool {
	return len(w.Parts) == 1 && w.Parts[0].Hole
}

// TokenizeTemplate splits a command template into words the way Tokenize
// splits a command, except that holes are opaque: the literal text alone
// decides where words begin and end and where quotes open and close, and
// each hole's value is placed inside the word around it. Substituting
// first and tokenizing after would let a value such as "*.tmp -delete"
// become several arguments; here one value is always within one argv
// entry. Offsets in a *SyntaxError count the template's bytes with the
// holes' text included.
func TokenizeTemplate(pieces []Piece) ([]Word, error) {
	t := templateTokenizer{words: make([]Word, 0, 8), parts: make([]Part, 0, 8)}
	off := 0
	for i, p := range pieces {
		if p.Hole {
			t.hole(p.Text, i)
			off += len(p.Text)
			continue
		}
		for j := 0; j < len(p.Text); j++ {
			t.byte(p.Text[j], off+j)
		}
		off += len(p.Text)
	}
	return t.finish()
}

// templateTokenizer is the state of TokenizeTemplate: the quote character
// open (0 when none), whether a backslash inside double quotes is pending,
// and the word being built.
type templateTokenizer struct {
	words   []Word
	parts   []Part // the parts of every word, back to back
	start   int    // where the current word's parts begin in parts
	lit     strings.Builder
	inWord  bool
	quote   byte
	quoteAt int
	escape  bool
}

func (t *templateTokenizer) flushLit() {
	if t.lit.Len() > 0 {
		t.parts = append(t.parts, Part{Text: t.lit.String(), Index: -1})
		t.lit.Reset()
	}
}

func (t *templateTokenizer) endWord() {
	if !t.inWord {
		return
	}
	t.flushLit()
	if len(t.parts) == t.start {
		t.parts = append(t.parts, Part{Index: -1}) // an empty quoted pair is an empty word
	}
	end := len(t.parts)
	t.words = append(t.words, Word{Parts: t.parts[t.start:end:end]})
	t.start, t.inWord = end, false
}

func (t *templateTokenizer) hole(text string, index int) {
	if t.escape { // a backslash before a hole is kept literally
		t.lit.WriteByte('\\')
		t.escape = false
	}
	t.flushLit()
	t.parts = append(t.parts, Part{Text: text, Hole: true, Index: index})
	t.inWord = true
}

func (t *templateTokenizer) byte(c byte, off int) {
	switch t.quote {
	case '\'':
		if c == '\'' {
			t.quote = 0
		} else {
			t.lit.WriteByte(c)
		}
		return
	case '"':
		switch {
		case t.escape:
			if strings.IndexByte("\"\\$`", c) < 0 {
				t.lit.WriteByte('\\')
			}
			t.lit.WriteByte(c)
			t.escape = false
		case c == '\\':
			t.escape = true
		case c == '"':
			t.quote = 0
		default:
			t.lit.WriteByte(c)
		}
		return
	}
	switch c {
	case ' ', '\t', '\n', '\r':
		t.endWord()
	case '\'', '"':
		t.quote, t.quoteAt, t.inWord = c, off, true
	default:
		t.lit.WriteByte(c)
		t.inWord = true
	}
}

func (t *templateTokenizer) finish() ([]Word, error) {
	if t.quote != 0 {
		return nil, &SyntaxError{Offset: t.quoteAt, Msg: "unterminated " + string(t.quote) + " quote"}
	}
	if t.escape {
		t.lit.WriteByte('\\')
	}
	t.endWord()
	if len(t.words) == 0 {
		return nil, &SyntaxError{Offset: 0, Msg: "empty command"}
	}
	return t.words, nil
}
