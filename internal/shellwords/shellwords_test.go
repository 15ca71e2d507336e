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
