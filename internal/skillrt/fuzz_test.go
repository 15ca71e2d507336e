package skillrt

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLocalPath: a path skills_read or skills_run_script accepts is
// relative, has no ".." element and no volume, whatever the input.
func FuzzLocalPath(f *testing.F) {
	for _, s := range []string{"references/a.md", "../x", "/etc/passwd", `..\..\x`, "a/../../b", "C:/x", "./a//b/", "a\x00b", "~/x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := localPath(p)
		if err != nil {
			return
		}
		if !filepath.IsLocal(got) || filepath.IsAbs(got) || filepath.VolumeName(got) != "" {
			t.Fatalf("%q accepted as %q", p, got)
		}
		for _, el := range strings.Split(filepath.ToSlash(got), "/") {
			if el == ".." {
				t.Fatalf("%q accepted as %q with ..", p, got)
			}
		}
	})
}
