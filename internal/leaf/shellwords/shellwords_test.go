package shellwords

import (
	"errors"
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"git status", []string{"git", "status"}},
		{"  curl   -s\t'wttr.in/x?format=j1'\n", []string{"curl", "-s", "wttr.in/x?format=j1"}},
		{"say -v Jamie 'Perry here now'", []string{"say", "-v", "Jamie", "Perry here now"}},
		{`echo "a \"b\" \\ \$HOME \n"`, []string{"echo", `a "b" \ $HOME \n`}},
		{`echo 'no \escape "here"'`, []string{"echo", `no \escape "here"`}},
		{`a'b c'd"e f"g`, []string{"ab cde fg"}},
		{`echo '' ""`, []string{"echo", "", ""}},
		{`jq -c '.[] | {id}' /tmp/x.json`, []string{"jq", "-c", ".[] | {id}", "/tmp/x.json"}},
		{`echo a\ b`, []string{"echo", `a\`, "b"}},
		{`echo $(whoami) ; ls`, []string{"echo", "$(whoami)", ";", "ls"}},
	}
	for _, tt := range tests {
		got, err := Tokenize(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestTokenizeErrors(t *testing.T) {
	tests := map[string]string{
		"say -v Jamie 'Jamie's turn'": "shell command: unterminated ' quote at offset 26",
		`echo "open`:                  `shell command: unterminated " quote at offset 5`,
		`echo "a\"`:                   `shell command: unterminated " quote at offset 5`,
		"   ":                         "shell command: empty command at offset 0",
		"":                            "shell command: empty command at offset 0",
	}
	for in, want := range tests {
		_, err := Tokenize(in)
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != want {
			t.Errorf("Tokenize(%q) err = %v, want %q", in, err, want)
		}
	}
}

// TestTemplateValueIsOneArgument is the argument-injection attack of issue
// 13 item 2: a substituted value with white space, quotes and flags stays
// inside the one argv entry its hole sits in.
func TestTemplateValueIsOneArgument(t *testing.T) {
	hostile := []string{"*.tmp -delete", `a' b "c`, "-exec rm {} ;", "", "x\ny", `\`, `"`, "'"}
	for _, v := range hostile {
		for _, tc := range []struct {
			pieces []Piece
			want   []string
			whole  []bool
		}{
			{[]Piece{{Text: "find work -name "}, {Text: v, Hole: true}}, []string{"find", "work", "-name", v}, []bool{false, false, false, true}},
			{[]Piece{{Text: "find work -name '"}, {Text: v, Hole: true}, {Text: "'"}}, []string{"find", "work", "-name", v}, []bool{false, false, false, true}},
			{[]Piece{{Text: `echo "pre `}, {Text: v, Hole: true}, {Text: ` post" --x=`}, {Text: v, Hole: true}}, []string{"echo", "pre " + v + " post", "--x=" + v}, []bool{false, false, false}},
			{[]Piece{{Text: v, Hole: true}, {Text: " arg"}}, []string{v, "arg"}, []bool{true, false}},
		} {
			words, err := TokenizeTemplate(tc.pieces)
			if err != nil {
				t.Fatalf("TokenizeTemplate(%+v): %v", tc.pieces, err)
			}
			var got []string
			var whole []bool
			for _, w := range words {
				got = append(got, w.String())
				whole = append(whole, w.Whole())
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(whole, tc.whole) {
				t.Errorf("TokenizeTemplate(%+v) = %q %v, want %q %v", tc.pieces, got, whole, tc.want, tc.whole)
			}
		}
	}
}

func TestTemplateLiteralQuotesOnly(t *testing.T) {
	// A quote opened in literal text and never closed is an error even when
	// a hole's value contains the closing quote.
	_, err := TokenizeTemplate([]Piece{{Text: "echo '"}, {Text: "x'", Hole: true}})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Offset != 5 {
		t.Errorf("err = %v, want an unterminated quote at offset 5", err)
	}
	words, err := TokenizeTemplate([]Piece{{Text: "a\\"}, {Text: "v", Hole: true}})
	if err != nil || len(words) != 1 || words[0].String() != `a\v` {
		t.Errorf("backslash before a hole = %v, %v", words, err)
	}
}

func BenchmarkTokenize(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Tokenize(`curl -s -H 'Accept: application/json' "https://example.com/x?y=1" -o out.json`); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTokenizeTemplate(b *testing.B) {
	pieces := []Piece{{Text: "find work -name "}, {Text: "*.tmp -delete", Hole: true}, {Text: " -maxdepth 2 --label='x "}, {Text: "v a l", Hole: true}, {Text: "'"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := TokenizeTemplate(pieces); err != nil {
			b.Fatal(err)
		}
	}
}
