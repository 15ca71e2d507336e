package eval

import (
	"math"
	"testing"

	"github.com/skillscript/skillc/eval/value"
)

var appendValueSamples = []any{nil, "", "x", 0.0, math.Copysign(0, -1), 1.0, -7.0, 19999.0, 1e15 - 1, 1e15, 1e21, 0.5, 1e-7,
	1e-6, -1e-6, 1e9 - 1, 1e9, 4294967295.0, 4294967296.0, 123456789.5, math.NaN(), math.Inf(1), math.Inf(-1), true, []any{1.0, "a"}, value.NewObject(0)}

// TestAppendValue: appendValue writes what value.String returns.
func TestAppendValue(t *testing.T) {
	for _, v := range appendValueSamples {
		if got, want := string(appendValue([]byte("p:"), v)), "p:"+value.String(v); got != want {
			t.Errorf("appendValue(%#v) = %q, want %q", v, got, want)
		}
	}
}

// FuzzAppendValue: the same for any number.
func FuzzAppendValue(f *testing.F) {
	for _, v := range appendValueSamples {
		if n, ok := v.(float64); ok {
			f.Add(n)
		}
	}
	f.Fuzz(func(t *testing.T, n float64) {
		if got, want := string(appendValue(nil, n)), value.String(n); got != want {
			t.Fatalf("appendValue(%v) = %q, want %q", n, got, want)
		}
	})
}
