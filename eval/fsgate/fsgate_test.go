package fsgate

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree builds a root with an outside sibling and a set of escaping links:
//
//	<tmp>/root/in.txt
//	<tmp>/root/sub/
//	<tmp>/root/out-link     -> <tmp>/outside
//	<tmp>/root/file-link    -> <tmp>/outside/secret.txt
//	<tmp>/root/dangling     -> <tmp>/outside/new.txt   (does not exist)
//	<tmp>/root/deep-link    -> <tmp>/outside/a/b
//	<tmp>/root/inner-link   -> sub                    (stays inside)
//	<tmp>/root/loop         -> loop
//	<tmp>/outside/secret.txt, <tmp>/outside/a/b/
func tree(t *testing.T) (root, outside string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside = filepath.Join(tmp, "root"), filepath.Join(tmp, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), filepath.Join(outside, "a", "b")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "in.txt"), []byte("inside"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("SECRET"), 0o644))
	links := map[string]string{
		"out-link":   outside,
		"file-link":  filepath.Join(outside, "secret.txt"),
		"dangling":   filepath.Join(outside, "new.txt"),
		"deep-link":  filepath.Join(outside, "a", "b"),
		"inner-link": "sub",
		"loop":       "loop",
	}
	for name, target := range links {
		must(t, os.Symlink(target, filepath.Join(root, name)))
	}
	return root, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func gate(t *testing.T, roots ...string) *Gate {
	t.Helper()
	g, err := New("", roots)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func refused(err error) bool {
	var pe *PathNotAllowedError
	return errors.As(err, &pe)
}

func TestDefaultDeny(t *testing.T) {
	root, _ := tree(t)
	for _, g := range []*Gate{nil, {}, gate(t), gate(t, "", "  ")} {
		if _, err := g.Read(filepath.Join(root, "in.txt"), ""); !refused(err) {
			t.Errorf("gate %+v read err = %v, want refusal", g, err)
		}
		if _, err := g.Write(filepath.Join(root, "x.txt"), "x"); !refused(err) {
			t.Errorf("gate %+v write err = %v, want refusal", g, err)
		}
	}
}

func TestReadWriteInside(t *testing.T) {
	root, _ := tree(t)
	g := gate(t, root)
	got, err := g.Read(filepath.Join(root, "in.txt"), "utf8")
	if err != nil || got != "inside" {
		t.Fatalf("Read = %q, %v", got, err)
	}
	target := filepath.Join(root, "new", "deeper", "report.md")
	written, err := g.Write(target, "# report\n")
	if err != nil || written != target {
		t.Fatalf("Write = %q, %v", written, err)
	}
	if data, _ := os.ReadFile(target); string(data) != "# report\n" {
		t.Errorf("file holds %q", data)
	}
	// Through a link that stays inside.
	if _, err := g.Write(filepath.Join(root, "inner-link", "x.txt"), "ok"); err != nil {
		t.Errorf("write through inner link: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "sub", "x.txt")); string(data) != "ok" {
		t.Errorf("inner link write landed elsewhere: %q", data)
	}
	// The root itself and a missing-then-dotdot path that comes back inside.
	if _, err := g.Check(root); err != nil {
		t.Errorf("root itself refused: %v", err)
	}
	if p, err := g.Check(filepath.Join(root, "nope", "..", "in.txt")); err != nil || p != filepath.Join(root, "in.txt") {
		t.Errorf("Check(nope/../in.txt) = %q, %v", p, err)
	}
}

func TestEscapesRefused(t *testing.T) {
	root, outside := tree(t)
	g := gate(t, root)
	escapes := []string{
		filepath.Join(root, "..", "outside", "secret.txt"),
		root + "/sub/../../outside/secret.txt",
		filepath.Join(root, "out-link", "secret.txt"),
		filepath.Join(root, "file-link"),
		filepath.Join(root, "dangling"),
		root + "/deep-link/../secret.txt",       // .. taken physically: outside/a
		root + "/missing/../../outside/new.txt", // missing component then ..
		root + "x/file.txt",                     // prefix confusion
		"/etc/passwd",
	}
	for _, p := range escapes {
		if _, err := g.Read(p, ""); !refused(err) {
			t.Errorf("Read(%q) err = %v, want refusal", p, err)
		}
		if _, err := g.Write(p, "pwned"); !refused(err) {
			t.Errorf("Write(%q) err = %v, want refusal", p, err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(data) != "SECRET" {
		t.Error("outside file was modified")
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("write through a dangling link created a file outside")
	}
}

func TestRefusalMessage(t *testing.T) {
	root, outside := tree(t)
	_, err := gate(t, root).Read(filepath.Join(root, "file-link"), "")
	want := `path "` + filepath.Join(root, "file-link") + `" (resolves to "` + filepath.Join(outside, "secret.txt") + `") is outside the filesystem allowlist`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

func TestRootThroughSymlink(t *testing.T) {
	root, _ := tree(t)
	alias := filepath.Join(filepath.Dir(root), "alias")
	must(t, os.Symlink(root, alias))
	g := gate(t, alias)
	if got := g.Roots(); !slices.Equal(got, []string{root}) {
		t.Errorf("Roots = %q, want the target", got)
	}
	for _, p := range []string{filepath.Join(alias, "in.txt"), filepath.Join(root, "in.txt")} {
		if _, err := g.Read(p, ""); err != nil {
			t.Errorf("Read(%q): %v", p, err)
		}
	}
}

func TestRelativePaths(t *testing.T) {
	root, _ := tree(t)
	g, err := New(root, []string{"sub"})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := g.Write("sub/rel.txt", "r"); err != nil || p != filepath.Join(root, "sub", "rel.txt") {
		t.Errorf("Write(relative) = %q, %v", p, err)
	}
	if _, err := g.Read("in.txt", ""); !refused(err) {
		t.Errorf("relative path outside the root: %v", err)
	}
}

func TestEncodings(t *testing.T) {
	root, _ := tree(t)
	g := gate(t, root)
	bin := []byte{0x25, 0x50, 0x44, 0x46, 0xff, 0x00, 0xfe, '\n'}
	p := filepath.Join(root, "doc.pdf")
	must(t, os.WriteFile(p, bin, 0o644))
	b64, err := g.Read(p, "base64")
	if err != nil || b64 != base64.StdEncoding.EncodeToString(bin) || strings.ContainsAny(b64, "\r\n") {
		t.Errorf("base64 = %q, %v", b64, err)
	}
	text, err := g.Read(p, "utf8")
	if err != nil || text != "%PDF\ufffd\x00\ufffd\n" {
		t.Errorf("utf8 = %q, %v", text, err)
	}
	var ee *EncodingError
	if _, err := g.Read(p, "latin1"); !errors.As(err, &ee) || err.Error() != `unknown file encoding "latin1" (want utf8 or base64)` {
		t.Errorf("bad encoding err = %v", err)
	}
}

func TestOperationalErrors(t *testing.T) {
	root, _ := tree(t)
	g := gate(t, root)
	cases := []struct {
		name string
		err  error
	}{
		{"read missing", func() error { _, err := g.Read(filepath.Join(root, "missing.txt"), ""); return err }()},
		{"read dir", func() error { _, err := g.Read(filepath.Join(root, "sub"), ""); return err }()},
		{"below a file", func() error { _, err := g.Write(filepath.Join(root, "in.txt", "x"), "x"); return err }()},
		{"write onto dir", func() error { _, err := g.Write(filepath.Join(root, "sub"), "x"); return err }()},
		{"loop", func() error { _, err := g.Read(filepath.Join(root, "loop"), ""); return err }()},
	}
	for _, c := range cases {
		if c.err == nil || refused(c.err) {
			t.Errorf("%s: err = %v, want an operational error", c.name, c.err)
		}
	}
	small := gate(t, root)
	small.MaxRead = 3
	if _, err := small.Read(filepath.Join(root, "in.txt"), ""); err == nil || !strings.Contains(err.Error(), "larger than 3 bytes") {
		t.Errorf("MaxRead err = %v", err)
	}
	if _, err := g.Check("with\x00nul"); !refused(err) {
		t.Errorf("NUL byte path: %v", err)
	}
}
