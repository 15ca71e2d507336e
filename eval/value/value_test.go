package value

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := FromJSON(s)
	if err != nil {
		t.Fatalf("FromJSON(%q): %v", s, err)
	}
	return v
}

func TestString(t *testing.T) {
	a, b := 0.1, 0.2
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"plain", "plain"},
		{3.0, "3"},
		{-0.0, "0"},
		{2.5, "2.5"},
		{a + b, "0.30000000000000004"},
		{1e21, "1e+21"},
		{1.5e-7, "1.5e-7"},
		{0.000001, "0.000001"},
		{123456789012345680000.0, "123456789012345680000"},
		{math.NaN(), "NaN"},
		{math.Inf(-1), "-Infinity"},
		{true, "true"},
		{false, "false"},
		{[]any{"a", 1.0, nil}, `["a",1,null]`},
		{7, "7"},
		{int64(-3), "-3"},
		{[]string{"x"}, `["x"]`},
		{map[string]any{"b": 1, "a": "<&>"}, `{"a":"<&>","b":1}`},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStringKeepsObjectOrder(t *testing.T) {
	v := mustJSON(t, `{"z":1,"a":{"y":[1,2],"b":null}}`)
	if got, want := String(v), `{"z":1,"a":{"y":[1,2],"b":null}}`; got != want {
		t.Errorf("String = %s, want %s", got, want)
	}
}

func TestTruthy(t *testing.T) {
	falsy := []any{nil, "", "  ", "false", "0", " 0\n", "[]", false, 0.0, []any{}}
	truthy := []any{"x", "False", "0.0", "no", "null", "{}", true, 1.0, -1.0, []any{""}, &Object{}, mustJSON(t, `{"items":[]}`)}
	for _, v := range falsy {
		if Truthy(v) {
			t.Errorf("Truthy(%#v) = true, want false", v)
		}
	}
	for _, v := range truthy {
		if !Truthy(v) {
			t.Errorf("Truthy(%#v) = false, want true", v)
		}
	}
}

func TestIsEmpty(t *testing.T) {
	for _, v := range []any{nil, "", " \n\t", []any{}} {
		if !IsEmpty(v) {
			t.Errorf("IsEmpty(%#v) = false", v)
		}
	}
	for _, v := range []any{"x", 0.0, false, &Object{}, mustJSON(t, `{"items":[]}`), []any{nil}} {
		if IsEmpty(v) {
			t.Errorf("IsEmpty(%#v) = true", v)
		}
	}
}

func TestPath(t *testing.T) {
	v := mustJSON(t, `{"a":{"b":[{"id":"x"},{"id":null}]},"0":"zero","s":"{\"k\":1}"}`)
	tests := []struct {
		segs []string
		want any
		ok   bool
	}{
		{nil, v, true},
		{[]string{"a", "b", "0", "id"}, "x", true},
		{[]string{"a", "b", "1", "id"}, nil, true},
		{[]string{"a", "b", "2"}, nil, false},
		{[]string{"a", "b", "01"}, nil, false},
		{[]string{"a", "b", "-1"}, nil, false},
		{[]string{"0"}, "zero", true},
		{[]string{"s", "k"}, nil, false}, // no JSON parsing of strings
		{[]string{"missing"}, nil, false},
		{[]string{"a", "b", "0", "id", "deeper"}, nil, false},
	}
	for _, tt := range tests {
		got, ok := Path(v, tt.segs)
		if ok != tt.ok || (ok && !Equal(got, tt.want)) || (ok && tt.want == nil && got != nil) {
			t.Errorf("Path(%v) = %#v, %v; want %#v, %v", tt.segs, got, ok, tt.want, tt.ok)
		}
	}
	if got, ok := Path(map[string]any{"k": []any{"v"}}, []string{"k", "0"}); !ok || got != "v" {
		t.Errorf("Path on map[string]any = %v, %v", got, ok)
	}
}

func TestNumber(t *testing.T) {
	good := map[string]float64{"5": 5, "5.00": 5, " -2.5 ": -2.5, ".5": 0.5, "5.": 5, "1e3": 1000, "+7": 7, "0": 0}
	for in, want := range good {
		got, err := Number(in)
		if err != nil || got != want {
			t.Errorf("Number(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if got, err := Number(42.0); err != nil || got != 42 {
		t.Errorf("Number(42.0) = %v, %v", got, err)
	}
	for _, in := range []any{"", " ", "abc", "0x10", "Infinity", "NaN", "1_000", "1e", ".", "-", "5 5", nil, true, []any{}, &Object{}} {
		_, err := Number(in)
		var tm *TypeMismatchError
		if !errors.As(err, &tm) {
			t.Errorf("Number(%#v) err = %v, want TypeMismatchError", in, err)
		}
	}
}

func TestNumberErrorMessage(t *testing.T) {
	_, err := Number("lots")
	if got, want := err.Error(), "numeric comparison: expected a number, got string (lots)"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}

func TestEqual(t *testing.T) {
	if !Equal(42.0, "42") || !Equal("a", "a") || Equal("a", "a ") || !Equal(nil, "") || !Equal(true, "true") {
		t.Error("Equal compares string forms byte for byte")
	}
	if Equal(5.0, "5.00") {
		t.Error("Equal must not coerce numerically")
	}
}

func TestAsListAndIn(t *testing.T) {
	list, ok := AsList(` ["abc", "def"] `)
	if !ok || len(list) != 2 {
		t.Fatalf("AsList(json string) = %v, %v", list, ok)
	}
	for _, s := range []any{"abc", `["a"`, "[not json]", `{"a":1}`, 3.0, nil} {
		if _, ok := AsList(s); ok {
			t.Errorf("AsList(%#v) = ok, want not a list", s)
		}
	}
	in, err := In("def", `["abc","def"]`)
	if err != nil || !in {
		t.Errorf("In json string = %v, %v", in, err)
	}
	in, err = In("2", []any{1.0, 2.0})
	if err != nil || !in {
		t.Errorf("In numbers by string form = %v, %v", in, err)
	}
	in, err = In("ab", []any{"abc"})
	if err != nil || in {
		t.Errorf("In must not substring-match elements: %v, %v", in, err)
	}
	_, err = In("a", "a,b")
	var tm *TypeMismatchError
	if !errors.As(err, &tm) || tm.Op != "in" {
		t.Errorf("In non-list err = %v", err)
	}
}

func TestFromJSON(t *testing.T) {
	v := mustJSON(t, `{"a":1,"a":2,"b":3}`)
	if got := ToJSON(v); got != `{"a":2,"b":3}` {
		t.Errorf("duplicate keys: %s", got)
	}
	v = mustJSON(t, `"\ud83d\ude00\ud800x"`)
	if v != "😀\ufffdx" {
		t.Errorf("surrogates: %q", v)
	}
	bad := []string{"", "{", "[1,]", `{"a"}`, `{"a":1,}`, "01", "1.", "-", "tru", `"a`, "\"\x01\"", `"\x"`, "[1] 2", `{1:2}`, "1e999"}
	for _, s := range bad {
		if _, err := FromJSON(s); err == nil {
			t.Errorf("FromJSON(%q) succeeded, want error", s)
		}
	}
}

func TestFromJSONDepthLimit(t *testing.T) {
	deep := make([]byte, 0, 4002)
	for range 2001 {
		deep = append(deep, '[')
	}
	if _, err := FromJSON(string(deep)); err == nil {
		t.Error("deeply nested input accepted")
	}
}

func TestToJSONEscapes(t *testing.T) {
	got := ToJSON([]any{"q\"b\\s\n\t\x01<>&\u2028", "bad\xffbyte"})
	want := `["q\"b\\s\n\t\u0001<>&` + "\u2028" + `","bad` + "\ufffd" + `byte"]`
	if got != want {
		t.Errorf("ToJSON = %s\nwant     %s", got, want)
	}
	if got := ToJSON([]any{math.NaN(), math.Inf(1)}); got != "[null,null]" {
		t.Errorf("non-finite = %s", got)
	}
}

func TestObject(t *testing.T) {
	var o Object
	o.Set("b", 1.0)
	o.Set("a", 2.0)
	o.Set("b", 3.0)
	if got := ToJSON(&o); got != `{"b":3,"a":2}` {
		t.Errorf("order = %s", got)
	}
	o.Delete("b")
	if got := o.Keys(); len(got) != 1 || got[0] != "a" {
		t.Errorf("after delete keys = %v", got)
	}
	data, err := json.Marshal(map[string]any{"o": &o})
	if err != nil || string(data) != `{"o":{"a":2}}` {
		t.Errorf("json.Marshal = %s, %v", data, err)
	}
	var back Object
	if err := json.Unmarshal([]byte(`{"y":1,"x":[2]}`), &back); err != nil || ToJSON(&back) != `{"y":1,"x":[2]}` {
		t.Errorf("json.Unmarshal = %s, %v", ToJSON(&back), err)
	}
	c := back.Clone()
	c.Set("y", "changed")
	if v, _ := back.Get("y"); v != 1.0 {
		t.Error("Clone shares storage")
	}
}

func TestNormalize(t *testing.T) {
	type point struct {
		X int `json:"x"`
	}
	in := []any{int32(1), uint8(2), float32(0.5), json.Number("4"), point{X: 3}, map[string]any{"k": []int{1}}, (*int)(nil)}
	got := ToJSON(Normalize(in))
	if want := `[1,2,0.5,4,{"x":3},{"k":[1]},null]`; got != want {
		t.Errorf("Normalize = %s, want %s", got, want)
	}
}

func TestTypeName(t *testing.T) {
	cases := map[string]any{"null": nil, "string": "", "number": 1, "boolean": true, "list": []any{}, "object": &Object{}}
	for want, v := range cases {
		if got := TypeName(v); got != want {
			t.Errorf("TypeName(%#v) = %s, want %s", v, got, want)
		}
	}
}

func TestUnresolvedRefError(t *testing.T) {
	if got := (&UnresolvedRefError{Ref: "X.y"}).Error(); got != "unresolved reference ${X.y}" {
		t.Errorf("got %q", got)
	}
}

func TestObjectTextForm(t *testing.T) {
	o := NewObject(1)
	o.Set("a", 1.0)
	if got := String(o); got != `{"a":1}` {
		t.Errorf("String without text form = %q", got)
	}
	o.SetText("child output")
	if got := String(o); got != "child output" {
		t.Errorf("String with text form = %q", got)
	}
	if got := ToJSON(o); got != `{"a":1}` {
		t.Errorf("ToJSON keeps the fields: %q", got)
	}
	if c := Clone(o).(*Object); String(c) != "child output" {
		t.Errorf("Clone lost the text form")
	}
}
