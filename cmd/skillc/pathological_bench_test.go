package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCheckManyTargets runs "skillc check" end to end on a skill of
// 12,500 to 100,000 one-line targets (issue 17: 100,000 took 7.6 s), so
// that ns/op across sizes shows whether the CLI's cost is linear.
func BenchmarkCheckManyTargets(b *testing.B) {
	b.Setenv("SKILLSCRIPT_HOME", b.TempDir())
	for _, n := range []int{12500, 25000, 50000, 100000} {
		var s strings.Builder
		s.WriteString("# Skill: many\n# Status: Draft\n\n")
		for i := 0; i < n; i++ {
			if i == 0 {
				s.WriteString("t0:\n")
			} else {
				fmt.Fprintf(&s, "t%d: t%d\n", i, i-1)
			}
			fmt.Fprintf(&s, "    emit(text=\"%d\")\n", i)
		}
		fmt.Fprintf(&s, "default: t%d\n", n-1)
		path := filepath.Join(b.TempDir(), "many.skill.md")
		if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("targets=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if code := run([]string{"skillc", "check", "--format", "json", path}, strings.NewReader(""), io.Discard, io.Discard); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
