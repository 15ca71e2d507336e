package filter

import (
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/value"
)

func benchChain(b *testing.B, in any, chain ...Call) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(in, false, chain); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTrim(b *testing.B) { benchChain(b, "  urgent\n", Call{Name: "trim"}) }

func BenchmarkURL(b *testing.B) { benchChain(b, "Asheville, NC & friends", Call{Name: "url"}) }

func BenchmarkShell(b *testing.B) { benchChain(b, "it's a 'quoted' value", Call{Name: "shell"}) }

func BenchmarkJSON(b *testing.B) { benchChain(b, "say \"hi\"\nthen leave", Call{Name: "json"}) }

func BenchmarkTrimJSON(b *testing.B) {
	benchChain(b, "  urgent\n", Call{Name: "trim"}, Call{Name: "json"})
}

func BenchmarkLengthList(b *testing.B) {
	benchChain(b, []any{"a", "b", "c"}, Call{Name: "length"})
}

func BenchmarkLengthJSONString(b *testing.B) {
	benchChain(b, `["a","b","c","d","e","f","g","h"]`, Call{Name: "length"})
}

func BenchmarkContainsSubstring(b *testing.B) {
	benchChain(b, "Yes, this one is urgent.", Call{Name: "contains", Arg: "urgent", HasArg: true})
}

func BenchmarkContainsJSONString(b *testing.B) {
	benchChain(b, `["abc","def","ghi"]`, Call{Name: "contains", Arg: "ghi", HasArg: true})
}

func BenchmarkFallbackMissing(b *testing.B) {
	b.ReportAllocs()
	chain := []Call{{Name: "trim"}, {Name: "fallback", Arg: "-", HasArg: true}}
	for b.Loop() {
		if _, err := Apply(nil, true, chain); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIsodate(b *testing.B) { benchChain(b, 1779660000.0, Call{Name: "isodate"}) }

func logText(n int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString("2026-05-24 22:00:00 INFO request ")
		sb.WriteString(value.FormatNumber(float64(i)))
		sb.WriteString(" handled\n")
	}
	return sb.String()
}

func BenchmarkTail1000Lines(b *testing.B) {
	benchChain(b, logText(1000), Call{Name: "tail", Arg: "5", HasArg: true})
}

func BenchmarkHead1000Lines(b *testing.B) {
	benchChain(b, logText(1000), Call{Name: "head", Arg: "5", HasArg: true})
}

func BenchmarkLines1000Lines(b *testing.B) {
	benchChain(b, logText(1000), Call{Name: "lines", Arg: "100-110", HasArg: true})
}

func BenchmarkPluck100(b *testing.B) {
	list := make([]any, 100)
	for i := range list {
		o := value.NewObject(2)
		o.Set("id", value.FormatNumber(float64(i)))
		o.Set("summary", "item")
		list[i] = o
	}
	benchChain(b, list, Call{Name: "pluck", Arg: "id", HasArg: true})
}

func BenchmarkPluckLength100JSONString(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[")
	for i := range 100 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"id":"` + value.FormatNumber(float64(i)) + `","summary":"item"}`)
	}
	sb.WriteString("]")
	benchChain(b, sb.String(), Call{Name: "pluck", Arg: "id", HasArg: true}, Call{Name: "length"})
}
