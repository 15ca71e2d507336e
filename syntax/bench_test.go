package syntax_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

// smallSkill is a hello-world sized skill.
const smallSkill = `# Skill: hello
# Vars: WHO=world

greet:
    emit(text="Hello, ${WHO}!")

default: greet
`

// typicalSkill builds a realistic skill of about lines lines: headers, a
// chain of targets with dispatches, conditions, loops and comments.
func typicalSkill(lines int) []byte {
	var b bytes.Buffer
	b.WriteString("# Skill: generated\n# Status: Approved\n# Vars: INPUT, LIMIT=10, MODE=\"fast\"\n")
	b.WriteString("# Requires: user-var:location -> LOCATION (fallback: here), secret.API_KEY\n# Output: text\n\n")
	i := 0
	for ; strings.Count(b.String(), "\n") < lines-12; i++ {
		dep := ""
		if i > 0 {
			dep = fmt.Sprintf(" step%d", i-1)
		}
		fmt.Fprintf(&b, "step%d:%s\n", i, dep)
		fmt.Fprintf(&b, "    # fetch page %d\n", i)
		fmt.Fprintf(&b, "    $ search.query q=\"${INPUT} %d\" limit=${LIMIT} -> R%d (fallback: [])\n", i, i)
		fmt.Fprintf(&b, "    $set N%d = \"${R%d|length}\"\n", i, i)
		fmt.Fprintf(&b, "    if ${N%d} > 3 and ${MODE} == \"fast\":\n", i)
		fmt.Fprintf(&b, "        emit(text=\"many: ${R%d.0.title|trim}\")\n", i)
		b.WriteString("    else:\n")
		fmt.Fprintf(&b, "        foreach X in ${R%d}:\n", i)
		b.WriteString("            emit(text=\"- ${X.id}: ${X.summary}\")\n\n")
	}
	fmt.Fprintf(&b, "default: step%d\n", i-1)
	return b.Bytes()
}

func benchSizes() []struct {
	name string
	src  []byte
} {
	return []struct {
		name string
		src  []byte
	}{
		{"small", []byte(smallSkill)},
		{"typical-100", typicalSkill(100)},
		{"large-10000", typicalSkill(10000)},
	}
}

// report adds lines/s and allocs/line to b.
func report(b *testing.B, src []byte, allocs uint64) {
	lines := float64(bytes.Count(src, []byte("\n")))
	b.ReportMetric(lines*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(allocs)/float64(b.N)/lines, "allocs/line")
	b.SetBytes(int64(len(src)))
}

func BenchmarkParse(b *testing.B) {
	for _, s := range benchSizes() {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			allocs := measure(b, func() {
				if _, diags := syntax.Parse(s.name, s.src); diags.HasErrors() {
					b.Fatal(diags)
				}
			})
			report(b, s.src, allocs)
		})
	}
}

func BenchmarkParseCheck(b *testing.B) {
	for _, s := range benchSizes() {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			allocs := measure(b, func() {
				f, _ := syntax.Parse(s.name, s.src)
				check.Check(f)
			})
			report(b, s.src, allocs)
		})
	}
}

func BenchmarkFormat(b *testing.B) {
	for _, s := range benchSizes() {
		b.Run(s.name, func(b *testing.B) {
			f, _ := syntax.Parse(s.name, s.src)
			b.ReportAllocs()
			allocs := measure(b, func() {
				if _, err := syntax.Format(f); err != nil {
					b.Fatal(err)
				}
			})
			report(b, s.src, allocs)
		})
	}
}
