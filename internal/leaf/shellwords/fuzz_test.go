package shellwords

import (
	"slices"
	"strings"
	"testing"
)

// quoteWord writes w so that Tokenize reads it back as one token: single
// quotes around everything, with each ' written as "'".
func quoteWord(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'"'"'`) + "'"
}

// FuzzTokenize checks that Tokenize never panics and that quoting any list
// of words and tokenizing the result gives the words back.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"git status", `say -v 'a b' "c \" d"`, "it's", "a\x00b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := Tokenize(s)
		if err != nil {
			return
		}
		quoted := make([]string, len(toks))
		for i, tok := range toks {
			quoted[i] = quoteWord(tok)
		}
		again, err := Tokenize(strings.Join(quoted, " "))
		if err != nil || !slices.Equal(again, toks) {
			t.Fatalf("round trip of %q: %q -> %q (%v)", s, toks, again, err)
		}
	})
}

// FuzzTokenizeTemplate checks that a hole's value, whatever it holds,
// never changes the word structure the literal text gives: the template
// with the value tokenizes to as many words as with a plain "X", and the
// value is inside the word of its hole.
func FuzzTokenizeTemplate(f *testing.F) {
	f.Add("find work -name ", "", "*.tmp -delete")
	f.Add("echo '", "' x", `a' "b`)
	f.Add("say -v a \"", "\"", "x\\\"y")
	f.Fuzz(func(t *testing.T, before, after, value string) {
		plain, err := TokenizeTemplate([]Piece{{Text: before}, {Text: "X", Hole: true}, {Text: after}})
		if err != nil {
			return
		}
		words, err := TokenizeTemplate([]Piece{{Text: before}, {Text: value, Hole: true}, {Text: after}})
		if err != nil || len(words) != len(plain) {
			t.Fatalf("%q + %q + %q: %d words with X, %d with the value (%v)", before, value, after, len(plain), len(words), err)
		}
		for i, w := range plain {
			if strings.Replace(w.String(), "X", value, 1) != words[i].String() && strings.Contains(w.String(), "X") {
				for _, p := range w.Parts {
					if p.Hole && !strings.Contains(words[i].String(), value) {
						t.Fatalf("word %d lost the value: %q", i, words[i].String())
					}
				}
			}
		}
	})
}
