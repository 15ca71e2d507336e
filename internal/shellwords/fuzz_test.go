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
