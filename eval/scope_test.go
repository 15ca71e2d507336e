package eval

import (
	"fmt"
	"testing"
)

// TestScopeBindings: a scope answers the same past the size where it
// builds its index as below it, rebinding keeps the recorded size and
// taint, and reset empties it.
func TestScopeBindings(t *testing.T) {
	root := newScope(scopeSkill, nil)
	inner := newScope(scopeLoop, root)
	for i := range 3 * scopeLinear {
		root.set(fmt.Sprintf("V%d", i), float64(i))
		root.setMeta(fmt.Sprintf("V%d", i), varMeta{size: int64(i), tainted: i%2 == 1})
		for j := 0; j <= i; j++ {
			v, ok := inner.lookup(fmt.Sprintf("V%d", j))
			if !ok || v != float64(j) {
				t.Fatalf("with %d bindings: V%d = %v, %v", i+1, j, v, ok)
			}
		}
		if _, ok := inner.lookup(fmt.Sprintf("V%d", i+1)); ok {
			t.Fatalf("V%d found before it was bound", i+1)
		}
	}
	root.set("V5", "again")
	if m := root.metaOf("V5"); m.size != 5 || !m.tainted {
		t.Fatalf("rebinding lost the record: %+v", m)
	}
	if sc := inner.owner("V20"); sc != root {
		t.Fatalf("owner of V20 = %p, want the root %p", sc, root)
	}
	inner.set("I", "x")
	inner.set("V1", "shadow")
	if v, _ := inner.lookup("V1"); v != "shadow" {
		t.Fatalf("the loop scope does not shadow: %v", v)
	}
	inner.reset()
	if v, _ := inner.lookup("V1"); v != float64(1) {
		t.Fatalf("after reset V1 = %v, want the root's 1", v)
	}
	if _, ok := inner.get("I"); ok {
		t.Fatal("reset kept a binding")
	}
}

// TestBindingList: a list kept unboxed by $append reads as the list it
// holds, and replacing the binding drops it.
func TestBindingList(t *testing.T) {
	sc := newScope(scopeSkill, nil)
	sc.set("ACC", []any{})
	_, e := sc.entry("ACC")
	e.setList([]any{"a", "b"})
	if n, rec := e.sizeHeld(); rec || n != sizeOf([]any{"a", "b"}) {
		t.Fatalf("size of the unboxed list = %d, %v", n, rec)
	}
	v, _ := sc.lookup("ACC")
	if l, ok := v.([]any); !ok || len(l) != 2 || l[1] != "b" {
		t.Fatalf("ACC = %#v", v)
	}
	sc.set("ACC", "text")
	if v, _ := sc.get("ACC"); v != "text" {
		t.Fatalf("after rebinding ACC = %#v", v)
	}
}
