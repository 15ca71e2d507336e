package lang

import (
	"strings"
	"testing"
)

// FuzzLookup checks the lookup predicates agree with Op for any name a
// skill might contain, seeded with the names of testdata/grammar.txt.
func FuzzLookup(f *testing.F) {
	for _, fields := range dataLines(f, "testdata/grammar.txt") {
		f.Add(fields[1])
		f.Add(strings.ToUpper(fields[1]))
	}
	f.Add("")
	f.Fuzz(func(t *testing.T, name string) {
		o, ok := Op(name)
		if ok != (IsIntrinsic(name) || IsTypedContract(name)) {
			t.Fatalf("Op(%q) found=%v disagrees with the class predicates", name, ok)
		}
		if ok && (o.Name != name || IsExternal(name) != o.External || Mutates(name) != o.Mutates) {
			t.Fatalf("Op(%q) = %+v disagrees with the predicates", name, o)
		}
		if !ok && (IsBareDispatch(name) || !IsExternal(name) || Mutates(name) != Never) {
			t.Fatalf("unknown %q is classified as a language op", name)
		}
		if Reserved(name) && ok && !IsIntrinsic(name) {
			t.Fatalf("typed-contract op %q is reserved", name)
		}
	})
}
