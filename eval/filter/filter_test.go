package filter

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// parseChain reads `name|name:"arg"` into calls, for tests only.
func parseChain(t testing.TB, s string) []Call {
	t.Helper()
	if s == "" {
		return nil
	}
	var chain []Call
	for _, part := range strings.Split(s, "|") {
		name, arg, ok := strings.Cut(part, ":")
		c := Call{Name: name}
		if ok {
			uq, err := strconv.Unquote(arg)
			if err != nil {
				t.Fatalf("bad test chain %q: %v", s, err)
			}
			c.Arg, c.HasArg = uq, true
		}
		chain = append(chain, c)
	}
	return chain
}

func obj(t testing.TB, s string) any {
	t.Helper()
	v, err := value.FromJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

type missingBase struct{}

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		in    any // missingBase{} for an unresolved reference
		chain string
		want  any
	}{
		// The reference's table, one per filter.
		{"url spec", "Asheville, NC", "url", "Asheville%2C%20NC"},
		{"shell spec", "it's safe", "shell", `'it'\''s safe'`},
		{"json object text kept", `{"k":"v"}`, "json", `{"k":"v"}`},
		{"trim spec", "urgent\n", "trim", "urgent"},
		{"length spec", []any{"a", "b", "c"}, "length", "3"},
		{"contains spec", "Yes, urgent", `contains:"urgent"`, "true"},
		{"fallback spec", missingBase{}, `fallback:"-"`, "-"},
		{"isodate spec", 1779660000.0, "isodate", "2026-05-24T22:00:00.000Z"},
		{"head spec", "a\nb\nc", `head:"2"`, "a\nb"},
		{"tail spec", "a\nb\n", `tail:"1"`, "b"},
		{"lines spec", "a\nb\nc\nd", `lines:"2-3"`, "b\nc"},
		{"pluck spec", `[{"id":"1"},{"id":"2"}]`, `pluck:"id"`, `["1","2"]`},

		// url
		{"url unreserved kept", "A-z_0.9!~*'()", "url", "A-z_0.9!~*'()"},
		{"url reserved escaped", "a/b?c=d&e#f+g", "url", "a%2Fb%3Fc%3Dd%26e%23f%2Bg"},
		{"url utf8", "café ☕", "url", "caf%C3%A9%20%E2%98%95"},
		{"url number", 12.5, "url", "12.5"},
		// shell
		{"shell empty", "", "shell", "''"},
		{"shell metachars", "$(rm -rf /); `x` \"q\"", "shell", "'$(rm -rf /); `x` \"q\"'"},
		{"shell two quotes", "''", "shell", `''\'''\'''`},
		// json
		{"json plain", `say "hi"`, "json", `"say \"hi\""`},
		{"json newline", "a\nb", "json", `"a\nb"`},
		{"json number", 3.0, "json", `3`},
		{"json number text", "3", "json", `"3"`},
		{"json bool", true, "json", `true`},
		{"json null", nil, "json", `null`},
		{"json list once", []any{"a"}, "json", `["a"]`},
		{"json list text not requoted", ` ["a", 1] `, "json", `["a",1]`},
		{"json bracket text not json", "[a, b]", "json", `"[a, b]"`},
		// trim
		{"trim unicode space", "\u00a0\ufeff x \u2003", "trim", "x"},
		{"trim inner kept", "  a  b ", "trim", "a  b"},
		// length
		{"length string runes", "héllo", "length", "5"},
		{"length json array string", `["a", "b"]`, "length", "2"},
		{"length empty list string", "[]", "length", "0"},
		{"length bracket text not json", "[a, b]", "length", "6"},
		{"length object text is a string", `{"a":1}`, "length", "7"},
		{"length empty", "", "length", "0"},
		// contains
		{"contains list member", []any{"a", "b"}, `contains:"a"`, "true"},
		{"contains list no substring", []any{"abc"}, `contains:"a"`, ""},
		{"contains json list string", `["x","y"]`, `contains:"y"`, "true"},
		{"contains json list numbers", `[1,2]`, `contains:"2"`, "true"},
		{"contains substring miss", "quiet", `contains:"urgent"`, ""},
		{"contains empty arg", "anything", `contains:""`, "true"},
		{"contains case sensitive", "URGENT", `contains:"urgent"`, ""},
		{"contains object stringified", `{"status":"ok"}`, `contains:"ok"`, "true"},
		{"contains number stringified", 1234.0, `contains:"23"`, "true"},
		{"contains null", nil, `contains:"x"`, ""},
		// fallback
		{"fallback present kept", "hello", `fallback:"missing"`, "hello"},
		{"fallback empty", "", `fallback:"-"`, "-"},
		{"fallback null", nil, `fallback:"-"`, "-"},
		{"fallback empty list", []any{}, `fallback:"none"`, "none"},
		{"fallback spaces kept", "  ", `fallback:"-"`, "  "},
		{"fallback keeps type", []any{"a"}, `fallback:"[]"`, []any{"a"}},
		{"fallback after trim", "  ", `trim|fallback:"d"`, "d"},
		{"fallback missing first", missingBase{}, `fallback:"d"|trim`, "d"},
		{"fallback missing last", missingBase{}, `trim|fallback:"d"`, "d"},
		{"fallback missing then json", missingBase{}, `length|fallback:"0"|json`, `"0"`},
		{"length then fallback on spaces", "  ", `length|fallback:"0"`, "2"},
		{"fallback empty arg", missingBase{}, `fallback:""`, ""},
		// isodate
		{"isodate string", "1779660000", "isodate", "2026-05-24T22:00:00.000Z"},
		{"isodate fraction", 1.5, "isodate", "1970-01-01T00:00:01.500Z"},
		{"isodate truncates", 0.0019, "isodate", "1970-01-01T00:00:00.001Z"},
		{"isodate negative", -1.0, "isodate", "1969-12-31T23:59:59.000Z"},
		{"isodate zero", 0.0, "isodate", "1970-01-01T00:00:00.000Z"},
		{"isodate big year", 253402300800.0, "isodate", "+010000-01-01T00:00:00.000Z"},
		{"isodate max", 8.64e12, "isodate", "+275760-09-13T00:00:00.000Z"},
		// head / tail / lines
		{"head zero", "a\nb", `head:"0"`, ""},
		{"head over", "a\nb", `head:"10"`, "a\nb"},
		{"head crlf", "a\r\nb\r\nc\r\n", `head:"2"`, "a\nb"},
		{"head negative", "a\nb", `head:"-1"`, ""},
		{"head non numeric", "a\nb", `head:"x"`, ""},
		{"head spaces in arg", "a\nb\nc", `head:" 2 "`, "a\nb"},
		{"head huge", "a\nb", `head:"99999999999999999999"`, "a\nb"},
		{"head on list", []any{"a", "b"}, `head:"1"`, `["a","b"]`},
		{"tail two", "a\nb\nc", `tail:"2"`, "b\nc"},
		{"tail empty string", "", `tail:"3"`, ""},
		{"tail only newline", "\n", `tail:"1"`, ""},
		{"tail keeps inner blank", "a\n\nb\n\n", `tail:"2"`, "b\n"},
		{"lines clamp end", "a\nb\nc", `lines:"2-9"`, "b\nc"},
		{"lines reversed", "a\nb\nc", `lines:"3-2"`, ""},
		{"lines zero start", "a\nb\nc", `lines:"0-2"`, "a\nb"},
		{"lines single", "a\nb\nc", `lines:"2-2"`, "b"},
		{"lines malformed", "a\nb\nc", `lines:"2"`, ""},
		{"lines negative", "a\nb\nc", `lines:"-1-2"`, ""},
		{"lines past end", "a\nb\nc", `lines:"5-9"`, ""},
		// pluck
		{"pluck omits missing and null", `[{"id":"1"},{"x":1},{"id":null},{"id":2},7,"s"]`, `pluck:"id"`, `["1",2]`},
		{"pluck from list", obj(t, `[{"id":{"n":1}}]`), `pluck:"id"`, `[{"n":1}]`},
		{"pluck empty", []any{}, `pluck:"id"`, `[]`},
		{"pluck then length", `[{"id":"1"},{"id":"2"}]`, `pluck:"id"|length`, "2"},
		{"pluck then contains", `[{"id":"1"},{"id":"2"}]`, `pluck:"id"|contains:"2"`, "true"},
		// chains
		{"trim then json", "  urgent\n", "trim|json", `"urgent"`},
		{"chain order matters", "a b", "url|shell", "'a%20b'"},
		{"empty chain keeps value", []any{"x"}, "", []any{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, missing := tt.in.(missingBase)
			in := tt.in
			if missing {
				in = nil
			}
			got, err := Apply(in, missing, parseChain(t, tt.chain))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if value.TypeName(got) != value.TypeName(tt.want) || value.String(got) != value.String(tt.want) {
				t.Errorf("got %s %q, want %s %q", value.TypeName(got), value.String(got), value.TypeName(tt.want), value.String(tt.want))
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		missing bool
		chain   string
		check   func(error) bool
		msg     string
	}{
		{"missing without fallback", nil, true, "trim|json", isUnresolved, "unresolved reference"},
		{"missing bare", nil, true, "", isUnresolved, "unresolved reference"},
		{"length number", 42.0, false, "length", isMismatch, "length: expected a list or string, got number (42)"},
		{"length null", nil, false, "length", isMismatch, "length: expected a list or string, got null"},
		{"length object", obj(t, `{"a":1}`), false, "length", isMismatch, `length: expected a list or string, got object ({"a":1})`},
		{"isodate text", "soon", false, "isodate", isMismatch, "isodate: expected epoch seconds, got string (soon)"},
		{"isodate empty", "", false, "isodate", isMismatch, "isodate: expected epoch seconds, got string"},
		{"isodate range", 1e13, false, "isodate", isMismatch, "isodate: expected epoch seconds within ±8.64e12, got number (10000000000000)"},
		{"pluck string", "abc", false, `pluck:"id"`, isMismatch, "pluck: expected a list, got string (abc)"},
		{"pluck object", obj(t, `{"id":1}`), false, `pluck:"id"`, isMismatch, `pluck: expected a list, got object ({"id":1})`},
		{"unknown filter", "x", false, "lenght", isFilterErr, "filter lenght: unknown filter (did you mean length?)"},
		{"unknown far", "x", false, "frobnicate", isFilterErr, "filter frobnicate: unknown filter"},
		{"missing arg", "x", false, "head", isFilterErr, "filter head: needs a quoted argument"},
		{"extra arg", "x", false, `trim:"x"`, isFilterErr, "filter trim: takes no argument"},
		{"bad chain beats missing", nil, true, `nope|fallback:"x"`, isFilterErr, "filter nope: unknown filter"},
		{"error after fallback", nil, true, `fallback:"x"|isodate`, isMismatch, "isodate: expected epoch seconds, got string (x)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Apply(tt.in, tt.missing, parseChain(t, tt.chain))
			if err == nil || !tt.check(err) {
				t.Fatalf("err = %v (%T)", err, err)
			}
			if err.Error() != tt.msg {
				t.Errorf("message = %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

func isUnresolved(err error) bool {
	var e *value.UnresolvedRefError
	return errors.As(err, &e)
}

func isMismatch(err error) bool {
	var e *value.TypeMismatchError
	return errors.As(err, &e)
}

func isFilterErr(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

func TestContainsMatchesIn(t *testing.T) {
	// The spec promises ${LIST|contains:"a"} and `"a" in ${LIST}` agree.
	lists := []any{[]any{"a", "b"}, `["a"]`, `[1, "a"]`, []any{}, `[]`, []any{"ab"}}
	for _, l := range lists {
		for _, x := range []string{"a", "1", "b", ""} {
			in, err := value.In(x, l)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := Apply(l, false, []Call{{Name: "contains", Arg: x, HasArg: true}})
			if (got == "true") != in {
				t.Errorf("contains %q on %v = %q, in = %v", x, l, got, in)
			}
		}
	}
}

func TestDocs(t *testing.T) {
	want := []string{"url", "shell", "json", "trim", "length", "contains", "fallback", "isodate", "head", "tail", "lines", "pluck"}
	if got := lang.Filters(); !slices.Equal(got, want) {
		t.Fatalf("Names = %v", got)
	}
	for _, d := range lang.FilterDocs() {
		takesArg, known := arity(d.Name)
		if !known || takesArg != d.TakesArg || (d.Arg != "") != d.TakesArg || d.Summary == "" {
			t.Errorf("doc for %s disagrees with the implementation", d.Name)
		}
		// Each example runs and gives the documented output.
		chain := parseChain(t, strings.TrimSuffix(strings.SplitN(d.Example, "|", 2)[1], "}"))
		in, missing := any(d.Input), d.Input == "(missing)"
		if list, ok := value.AsList(d.Input); ok {
			in = list
		}
		got, err := Apply(in, missing, chain)
		if err != nil || value.String(got) != d.Output {
			t.Errorf("example %s on %q = %q, %v; want %q", d.Example, d.Input, value.String(got), err, d.Output)
		}
	}
	if d, ok := lang.LookupFilter("pluck"); !ok || d.Name != "pluck" {
		t.Error("Lookup(pluck) failed")
	}
	if _, ok := lang.LookupFilter("nope"); ok {
		t.Error("Lookup(nope) succeeded")
	}
	if lang.SuggestFilter("fallbak") != "fallback" || lang.SuggestFilter("zzzzzzz") != "" {
		t.Error("Suggest")
	}
}

func TestFallbackIndex(t *testing.T) {
	if fallbackIndex(parseChain(t, `trim|fallback:"x"`)) < 0 || fallbackIndex(parseChain(t, "trim")) >= 0 {
		t.Error("fallbackIndex")
	}
	if got := (Call{Name: "head", Arg: "5", HasArg: true}).String(); got != `head:"5"` {
		t.Errorf("Call.String = %s", got)
	}
}
