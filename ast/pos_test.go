package ast

import (
	"slices"
	"testing"
)

// naiveStarts is the definition NewLineTable implements: line 1 starts at
// 0, and every newline starts a line after it.
func naiveStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func checkLineTable(t *testing.T, src []byte) {
	t.Helper()
	lt := NewLineTable(src)
	want := naiveStarts(src)
	if lt.LineCount() != len(want) {
		t.Fatalf("%q: %d lines, want %d", src, lt.LineCount(), len(want))
	}
	got := make([]int, lt.LineCount())
	for n := range got {
		got[n] = lt.LineStart(n + 1)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%q: line starts %v, want %v", src, got, want)
	}
}

func TestLineTable(t *testing.T) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\nb", "\n\n\n", "ab\r\ncd\n\nef", "é\nü\n"} {
		checkLineTable(t, []byte(s))
	}
}

func FuzzLineTable(f *testing.F) {
	f.Add([]byte("a\nb\n"))
	f.Add([]byte("\n\n"))
	f.Fuzz(checkLineTable)
}
