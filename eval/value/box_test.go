package value

import (
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestBoxBytes: BoxBytes gives the string of the bytes for every length
// (each box size and past the largest), independent of the buffer it was
// given, and the values survive collections.
func TestBoxBytes(t *testing.T) {
	buf := []byte(strings.Repeat("abcdefghij", 20))
	var got []any
	for n := 0; n <= len(buf); n++ {
		got = append(got, BoxBytes(buf[:n]))
	}
	for i := range buf {
		buf[i] = 'X' // the boxes must not alias the buffer
	}
	runtime.GC()
	want := strings.Repeat("abcdefghij", 20)
	for n, v := range got {
		s, ok := v.(string)
		if !ok || s != want[:n] {
			t.Fatalf("BoxBytes of %d bytes = %#v, want %q", n, v, want[:n])
		}
		if v != any(want[:n]) {
			t.Fatalf("BoxBytes of %d bytes does not compare equal to the string", n)
		}
	}
}

// TestFloatArena: numbers boxed into shared chunks keep their own values
// across chunk boundaries and collections, and are float64 values.
func TestFloatArena(t *testing.T) {
	var a floatArena
	var got []any
	for i := range 5000 {
		got = append(got, a.box(float64(i)+0.5))
	}
	runtime.GC()
	for i, v := range got {
		f, ok := v.(float64)
		if !ok || f != float64(i)+0.5 {
			t.Fatalf("box %d = %#v, want %v", i, v, float64(i)+0.5)
		}
	}
}

// TestCountElems: the element count the decoder sizes the outermost list
// with is exact for valid arrays (nested values and strings holding
// commas and brackets count once).
func TestCountElems(t *testing.T) {
	for _, s := range []string{
		`[1]`, `[1,2,3]`, `[ 1 , 2 ]`, `["a,b", "c]", "\"],"]`, `[[1,2],[3,[4,5]],{"a":[1,2],"b":","}]`,
		`[null,true,false,-1.5e3,"x"]`, `["\\", ","]`,
	} {
		v, err := FromJSON(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if n := countElems(s[1:]); n != len(v.([]any)) {
			t.Errorf("countElems(%s) = %d, want %d", s, n, len(v.([]any)))
		}
	}
}

// FuzzSmallInt: the integer fast path of the decoder gives exactly what
// strconv.ParseFloat gives (sign of zero included) whenever it applies.
func FuzzSmallInt(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-12", "999999999999999", "1000000000000000", "1.5", "1e3", "", "-", "00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := smallInt(s)
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("smallInt(%q) = %v, ParseFloat %v, %v", s, got, want, err)
		}
	})
}

// TestStringsArena: strings boxed into shared chunks are the strings of
// their bytes for every length (in a chunk, across chunk and header-chunk
// boundaries, past the longest boxed in a chunk), independent of the
// buffer, compare equal to plain strings and survive collections.
func TestStringsArena(t *testing.T) {
	var a Strings
	buf := []byte(strings.Repeat("0123456789", 40))
	var got []any
	var want []string
	for i := 0; i < 3000; i++ {
		n := (i * 7) % (len(buf) + 1)
		got = append(got, a.Box(buf[:n]))
		want = append(want, strings.Repeat("0123456789", 40)[:n])
		for j := range buf {
			buf[j]++ // the boxes must not alias the buffer
		}
		copy(buf, strings.Repeat("0123456789", 40))
	}
	for j := range buf {
		buf[j] = 'X'
	}
	runtime.GC()
	for i, v := range got {
		s, ok := v.(string)
		if !ok || s != want[i] {
			t.Fatalf("box %d = %#v, want %q", i, v, want[i])
		}
		if v != any(want[i]) {
			t.Fatalf("box %d does not compare equal to the string", i)
		}
	}
}

// TestLeadingInt: the integer fast path of the decoder takes exactly the
// positive integers of at most 15 digits, with ParseFloat's value, and
// leaves every other number to the general path.
func TestLeadingInt(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int // length taken; 0 = left to the general path
	}{
		{"7", 1}, {"7,", 1}, {"123]", 3}, {"999999999999999", 15}, {"100000000000000 ", 15},
		{"1234567890123456", 0}, {"0", 0}, {"0123", 0}, {"-5", 0}, {"12.5", 0}, {"1e3", 0}, {"1E3", 0},
		{"", 0}, {"x", 0}, {"12x", 2},
	} {
		f, n := leadingInt(c.in)
		if n != c.want {
			t.Errorf("leadingInt(%q) took %d bytes, want %d", c.in, n, c.want)
			continue
		}
		if n > 0 {
			if want, err := strconv.ParseFloat(c.in[:n], 64); err != nil || f != want {
				t.Errorf("leadingInt(%q) = %v, want %v", c.in, f, want)
			}
		}
	}
}
