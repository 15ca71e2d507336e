package trace

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/value"
)

// awkward holds every kind of character the string encoder treats apart:
// quotes and backslashes, every control character, the HTML characters,
// U+2028/U+2029, multi-byte UTF-8 and invalid UTF-8.
var awkward = func() string {
	var b strings.Builder
	b.WriteString(`say "hi" \ path <a href='x'>&amp; `)
	for c := 0; c < 0x20; c++ {
		b.WriteByte(byte(c))
	}
	b.WriteString("\x7f é ü 日本 😀 \u2028 \u2029 \xff \xe2\x80 \xc3(")
	return b.String()
}()

// The spool's records are the bytes encoding/json's Encoder wrote for
// them, for every shape a record takes: begin (inputs nil, empty or
// holding nested values), finish (ops, every outcome list nil, empty or
// set, tool calls with raw results), abort, and strings with every
// character the encoder escapes.
func TestSpoolEncoding(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 30, 45, 123456789, time.UTC)
	t1 := time.Date(2026, 11, 27, 13, 30, 45, 0, time.FixedZone("x", 5*3600+1800))
	t2 := time.Date(2026, 11, 27, 13, 30, 45, 120000000, time.Local)
	span := &eval.Span{}
	full := &Run{
		ID: "id-" + awkward, Skill: awkward, ContentHash: "h", Trigger: "cli", TriggerName: awkward, Caller: "agent<1>",
		Inputs:     value.Inputs{"WHO": "x" + awkward, "N": value.Numeral("12"), "L": []any{"a", 1.5, true, nil, map[string]any{"k": "<v>"}}},
		Mechanical: true, Status: StatusFailed, StartedAt: t0, FinishedAt: &t1, DurationMS: 1234, DeadlineExceeded: true,
		UncertainEffects: []eval.Effect{{Target: "run", Op: "shell", Detail: awkward, Range: span}},
		Errors:           []eval.ErrorInfo{{Kind: "k", Message: awkward, Target: "t", Op: "o", Nested: []eval.ErrorInfo{{Kind: "n", Message: "m"}}}},
		Fallbacks:        []eval.Fallback{{Target: "t", Op: "o", Reason: "r&r"}},
		Deliveries:       []eval.Receipt{{Source: "notify", Agent: "a", Kind: "wake", Connector: "c", OK: true, DeliveryID: "d"}},
		Output:           awkward + "\n", AbortReason: awkward, Host: "host-1",
		Ops: []Op{
			{Depth: 0, Skill: "s", Target: "run", Op: "emit", Line: 4, StartedAt: t0, Duration: 1500, Outcome: OutcomeOK},
			{Depth: 2, Skill: "s", Target: "run", Op: "shell", Line: -1, StartedAt: t2, Duration: -3 * time.Second, Outcome: "error", ErrorKind: "timeout", Detail: awkward},
		},
	}
	// every field of Run and Op is set in full (and of spoolLine in the
	// last line): a field added to either is then in the comparison, and
	// the test fails until appendRun/appendOp write it
	for _, v := range []any{*full, full.Ops[1]} {
		rv := reflect.ValueOf(v)
		for i := range rv.NumField() {
			if rv.Field(i).IsZero() {
				t.Fatalf("%s.%s is not set in the test's record: set it", rv.Type().Name(), rv.Type().Field(i).Name)
			}
		}
	}
	lines := []spoolLine{
		{},
		{Run: &Run{ID: "a", Skill: "trivial", ContentHash: "sha256:00", Trigger: "cli", Status: StatusRunning, StartedAt: t0}, Source: "# Skill: s\nrun:\n    emit(text=\"<hi> & ${X}\")\n"},
		{Run: &Run{ID: "b", Inputs: value.Inputs{}, StartedAt: t2}, Source: awkward},
		{Run: full, Source: strings.Repeat(awkward, 300)},
		{Finish: &Run{Status: StatusOK, FinishedAt: &t1, Output: "hello\n"}},
		{Finish: &Run{Status: StatusOK, FinishedAt: &t1, UncertainEffects: []eval.Effect{}, Errors: []eval.ErrorInfo{}, Fallbacks: []eval.Fallback{}, Deliveries: []eval.Receipt{}, Ops: []Op{}}},
		{Finish: full, Calls: []ToolCall{
			{Connector: "gh", Tool: "list", Result: json.RawMessage(` {"a": [1, 2,  "<x>"]} `)},
			{Connector: "llm", Tool: "m", Error: awkward, ToolError: true, Truncated: true},
		}},
		{Abort: awkward, AbortAt: 1764246645123},
		{Abort: "context canceled", AbortAt: -1},
		{Run: full, Source: "s", Finish: full, Calls: []ToolCall{{Connector: "c"}}, Abort: "x", AbortAt: 7},
	}
	all := reflect.ValueOf(lines[len(lines)-1])
	for i := range all.NumField() {
		if all.Field(i).IsZero() {
			t.Fatalf("spoolLine.%s is not set in the test's last record: set it", all.Type().Field(i).Name)
		}
	}
	for i, l := range lines {
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(l); err != nil {
			t.Fatalf("line %d: encoding/json: %v", i, err)
		}
		got, err := appendSpoolLine(nil, l)
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("line %d:\n got %s\nwant %s", i, got, want.Bytes())
		}
		back, err := readSpool(bytes.NewReader(got))
		if err != nil || len(back) != 1 {
			t.Errorf("line %d: read back %d records, %v", i, len(back), err)
		}
	}
	// a time encoding/json refuses is refused here too
	bad := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := appendSpoolLine(nil, spoolLine{Run: &Run{StartedAt: bad}}); err == nil {
		t.Error("a year past 9999 was encoded")
	}
	if _, err := appendSpoolLine(nil, spoolLine{Finish: &Run{Ops: []Op{{StartedAt: bad}}}}); err == nil {
		t.Error("an op's year past 9999 was encoded")
	}
}

// appendJSONString writes what encoding/json writes for any string.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", awkward, "\u2028", "\xed\xa0\x80", "\U0010ffff", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
