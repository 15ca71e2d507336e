package fsgate

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCheck checks that whatever a path spells, an allowed path resolves
// under the root and agrees with the kernel's own view of it.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"in.txt", "out-link/secret.txt", "sub/../../outside", "dangling", "deep-link/../x", "inner-link/../in.txt", "a/./b/../../sub"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		root, _ := tree(t)
		g := gate(t, root)
		p, err := g.Check(filepath.Join(root, "") + "/" + rel)
		if err != nil {
			return
		}
		if !within(p, root) {
			t.Fatalf("%q allowed as %q, outside %q", rel, p, root)
		}
		if _, statErr := os.Lstat(p); statErr == nil {
			real, err := filepath.EvalSymlinks(p)
			if err == nil && !within(real, root) {
				t.Fatalf("%q allowed as %q but the kernel resolves it to %q", rel, p, real)
			}
		}
	})
}
