package filter

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

func seedInputs(f *testing.F) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "eval", "filter", "*.txt"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no filter seeds: %v", err)
	}
	var out []string
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, string(data))
	}
	return out
}

// FuzzChain runs arbitrary two-filter chains on arbitrary text and checks
// that nothing panics and that the results keep simple invariants.
func FuzzChain(f *testing.F) {
	for i, s := range seedInputs(f) {
		f.Add(s, uint8(i), uint8(i+3), "2", false)
		f.Add(s, uint8(i+5), uint8(i+7), "1-3", true)
	}
	names := lang.Filters()
	f.Fuzz(func(t *testing.T, s string, a, b uint8, arg string, missing bool) {
		chain := []Call{call(names[int(a)%len(names)], arg), call(names[int(b)%len(names)], arg)}
		got, err := Apply(s, missing, chain)
		if missing && fallbackIndex(chain) < 0 && err == nil {
			t.Fatalf("missing base without fallback succeeded: %v", got)
		}
		if missing && chain[0].Name == "fallback" && chain[1].Name == "fallback" && got != arg {
			t.Fatalf("fallback on missing = %q, want %q", got, arg)
		}
		checkLineFamily(t, s, arg)
		checkEncoders(t, s)
		checkLength(t, s)
	})
}

// splitLines is the reference model of the line family: split on \n,
// strip one \r per line, drop the empty line after a terminal newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// modelSlice selects lines [from, to) (0-based, clamped) with the model.
func modelSlice(s string, from, to int) string {
	lines := splitLines(s)
	from, to = max(from, 0), min(to, len(lines))
	if from >= to {
		return ""
	}
	return strings.Join(lines[from:to], "\n")
}

func call(name, arg string) Call {
	takesArg, _ := arity(name)
	if !takesArg {
		return Call{Name: name}
	}
	return Call{Name: name, Arg: arg, HasArg: true}
}

func run(t *testing.T, s string, chain ...Call) string {
	t.Helper()
	v, err := Apply(s, false, chain)
	if err != nil {
		t.Fatalf("%v on %q: %v", chain, s, err)
	}
	return value.String(v)
}

// checkLineFamily: head/tail/lines never fail, never return more lines than
// asked for, and lines:"1-N" agrees with head:"N".
func checkLineFamily(t *testing.T, s, arg string) {
	n := count(arg)
	h := run(t, s, Call{Name: "head", Arg: arg, HasArg: true})
	tl := run(t, s, Call{Name: "tail", Arg: arg, HasArg: true})
	for _, out := range []string{h, tl} {
		if got := len(splitLines(out + "\n")); out != "" && got > n {
			t.Fatalf("head/tail %q on %q gave %d lines", arg, s, got)
		}
	}
	if r := run(t, s, Call{Name: "lines", Arg: "1-" + arg, HasArg: true}); isDigits(strings.TrimSpace(arg)) && r != h {
		t.Fatalf("lines:1-%s = %q but head = %q on %q", arg, r, h, s)
	}
	if n > 0 && (h != modelSlice(s, 0, n) || tl != modelSlice(s, len(splitLines(s))-n, len(splitLines(s)))) {
		t.Fatalf("head/tail %d of %q = %q / %q disagree with the model", n, s, h, tl)
	}
	for _, r := range [][2]int{{2, n}, {n, n + 2}, {0, n}} {
		rng := itoa(r[0]) + "-" + itoa(r[1])
		if got, want := run(t, s, Call{Name: "lines", Arg: rng, HasArg: true}), modelSlice(s, max(r[0], 1)-1, r[1]); got != want {
			t.Fatalf("lines:%s of %q = %q, model %q", rng, s, got, want)
		}
	}
	all := strings.Join(splitLines(s), "\n")
	if !strings.HasPrefix(all, h) || !strings.HasSuffix(all, tl) {
		t.Fatalf("head/tail not a prefix/suffix of %q: %q %q", s, h, tl)
	}
}

// checkEncoders: url, json and shell are reversible for valid UTF-8.
func checkEncoders(t *testing.T, s string) {
	if !utf8.ValidString(s) {
		return
	}
	if back, err := url.PathUnescape(run(t, s, Call{Name: "url"})); err != nil || back != s {
		t.Fatalf("url does not round-trip %q: %q %v", s, back, err)
	}
	checkJSON(t, s)
	if got := unquoteShell(run(t, s, Call{Name: "shell"})); got != s {
		t.Fatalf("shell does not round-trip %q: %q", s, got)
	}
}

// checkJSON: |json of text is valid JSON; it decodes to the text itself,
// or, when the text already is a JSON list or object, to that value
// (DECISIONS 23: never encoded twice).
func checkJSON(t *testing.T, s string) {
	out := run(t, s, Call{Name: "json"})
	var back any
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatalf("json of %q is not JSON: %q %v", s, out, err)
	}
	if str, ok := back.(string); ok {
		if str != s {
			t.Fatalf("json does not round-trip %q: %q", s, str)
		}
		return
	}
	var want any
	if err := json.Unmarshal([]byte(s), &want); err != nil || !reflect.DeepEqual(want, back) {
		t.Fatalf("json of %q is %q, not the JSON of the same value (%v)", s, out, err)
	}
}

// unquoteShell reads a word made of '...' pieces and \' escapes, the only
// shapes ShellQuote produces.
func unquoteShell(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '\\':
			i++
			b.WriteByte(w[i])
		case '\'':
			j := strings.IndexByte(w[i+1:], '\'')
			b.WriteString(w[i+1 : i+1+j])
			i += j + 1
		default:
			return "<unquoted byte>"
		}
	}
	return b.String()
}

// checkLength: a JSON array string's length is its element count.
func checkLength(t *testing.T, s string) {
	got := run(t, s, Call{Name: "length"})
	if list, ok := value.AsList(s); ok {
		var parsed []any
		if err := json.Unmarshal([]byte(s), &parsed); err != nil || got != itoa(len(parsed)) || len(list) != len(parsed) {
			t.Fatalf("length of %q = %s, encoding/json sees %d (%v)", s, got, len(parsed), err)
		}
	}
}

func itoa(n int) string { return value.FormatNumber(float64(n)) }
