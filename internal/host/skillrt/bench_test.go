package skillrt

import (
	"fmt"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// BenchmarkAvailableSkills1000 renders <available_skills> for 1,000
// skills with a budget large enough for all of them.
func BenchmarkAvailableSkills1000(b *testing.B) {
	recs := make([]*registry.Record, 1000)
	for i := range recs {
		recs[i] = &registry.Record{Name: fmt.Sprintf("skill-%04d", i), Kind: registry.KindPackage, Origin: "user",
			Description: "Generated skill <number> " + fmt.Sprint(i) + " & friends: use it when the task mentions it.", Location: fmt.Sprintf("/skills/skill-%04d/SKILL.md", i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if AvailableSkills(recs, 1<<20) == "" {
			b.Fatal("empty")
		}
	}
}

// BenchmarkLoad measures skills_load (replace with one package) plus the
// next Compose on a registry of four skills.
func BenchmarkLoad(b *testing.B) {
	rt, _ := fixture(b, Options{})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rt.Load("s", LoadInput{Names: []string{"pdf"}}); err != nil {
			b.Fatal(err)
		}
		_ = rt.Compose("s")
	}
}
