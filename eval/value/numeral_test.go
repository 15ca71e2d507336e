package value

import (
	"encoding/json"
	"testing"
)

// TestNumeralText: every spelling of a number renders as written, and
// |json (ToJSON) writes it as a JSON number when the text is JSON and as
// a JSON string otherwise; the float value is what the spec compares.
func TestNumeralText(t *testing.T) {
	for _, c := range []struct {
		text     string
		kept     bool    // held as a Numeral
		json     string  // ToJSON
		f        float64 // Number
		truthy   bool
		fromJSON bool // FromJSON accepts the text
	}{
		{"5", false, "5", 5, true, true},
		{"2.5", false, "2.5", 2.5, true, true},
		{"-3", false, "-3", -3, true, true},
		{"0", false, "0", 0, false, true},
		{"02134", true, `"02134"`, 2134, true, false},
		{"00", true, `"00"`, 0, false, false},
		{"1234567890123456789", true, "1234567890123456789", 1234567890123456789, true, true},
		{"12345678901234567890123", true, "12345678901234567890123", 1.2345678901234568e22, true, true},
		{"2.50", true, "2.50", 2.5, true, true},
		{"0.10", true, "0.10", 0.1, true, true},
		{"1.0", true, "1.0", 1, true, true},
		{"1e3", true, "1e3", 1000, true, true},
		{"1E3", true, "1E3", 1000, true, true},
		{"-0", true, "-0", 0, false, true},
		{"+5", true, `"+5"`, 5, true, false},
		{".5", true, `".5"`, 0.5, true, false},
		{"5.", true, `"5."`, 5, true, false},
		{"1e21", true, "1e21", 1e21, true, true},
		{"1e+21", false, "1e+21", 1e21, true, true},
	} {
		v, ok := NumberFromTextOK(c.text)
		if !ok {
			t.Errorf("%s: not a numeral", c.text)
			continue
		}
		if _, isNum := v.(Numeral); isNum != c.kept {
			t.Errorf("%s: kept as Numeral = %v, want %v", c.text, isNum, c.kept)
		}
		if got := String(v); got != c.text {
			t.Errorf("%s: String = %q", c.text, got)
		}
		if got := ToJSON(v); got != c.json {
			t.Errorf("%s: ToJSON = %s, want %s", c.text, got, c.json)
		}
		if b, err := json.Marshal(v); err != nil || string(b) != c.json {
			t.Errorf("%s: json.Marshal = %s, %v, want %s", c.text, b, err, c.json)
		}
		if f, err := Number(v); err != nil || f != c.f {
			t.Errorf("%s: Number = %v, %v, want %v", c.text, f, err, c.f)
		}
		if Truthy(v) != c.truthy {
			t.Errorf("%s: Truthy = %v", c.text, !c.truthy)
		}
		if TypeName(v) != "number" {
			t.Errorf("%s: TypeName = %s", c.text, TypeName(v))
		}
		if !Equal(v, c.text) {
			t.Errorf("%s: not Equal to its text", c.text)
		}
		got, err := FromJSON(c.text)
		if (err == nil) != c.fromJSON {
			t.Errorf("%s: FromJSON error %v", c.text, err)
		}
		if err == nil && String(got) != c.text {
			t.Errorf("%s: FromJSON renders %q", c.text, String(got))
		}
	}
	// spellings that are not decimal numerals are no numbers at all
	for _, s := range []string{"0x1F", "1_000", "NaN", "Infinity", "-Infinity", "", " 5", "1e", "e3", "--1"} {
		if v, ok := NumberFromTextOK(s); ok {
			t.Errorf("%q: taken as a number %#v", s, v)
		}
	}
}

// TestInputsKeepNumberText: JSON inputs (MCP arguments, event params,
// queued jobs) decode with numbers as written.
func TestInputsKeepNumberText(t *testing.T) {
	var in Inputs
	if err := json.Unmarshal([]byte(`{"zip": 2134, "id": 1234567890123456789, "p": 2.50, "l": [1e3, -0], "o": {"n": 0.10}}`), &in); err != nil {
		t.Fatal(err)
	}
	got := ToJSON(Normalize(map[string]any(in)))
	if want := `{"id":1234567890123456789,"l":[1e3,-0],"o":{"n":0.10},"p":2.50,"zip":2134}`; got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	if err := json.Unmarshal([]byte(`{"a": 1} x`), &in); err == nil {
		t.Fatal("trailing data accepted")
	}
}

// FuzzNumeralRoundTrip: a decimal numeral renders as its own text, its
// JSON decodes back to the same text, and its value is the float the text
// denotes.
func FuzzNumeralRoundTrip(f *testing.F) {
	for _, s := range []string{"02134", "1234567890123456789", "2.50", "1e3", "-0", "+5", ".5", "5.", "0.000001", "1e-7", "123456789012345678901234567890"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := NumberFromTextOK(s)
		if !ok {
			return
		}
		if String(v) != s {
			t.Fatalf("%q renders as %q", s, String(v))
		}
		want, _ := ParseNumber(s)
		if got, err := Number(v); err != nil || got != want {
			t.Fatalf("%q: Number %v, %v; want %v", s, got, err, want)
		}
		back, err := FromJSON(ToJSON(v))
		if err != nil {
			t.Fatalf("%q: ToJSON %s does not decode: %v", s, ToJSON(v), err)
		}
		if String(back) != s {
			t.Fatalf("%q: through JSON renders as %q", s, String(back))
		}
	})
}
