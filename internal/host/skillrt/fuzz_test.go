package skillrt

import (
	"encoding/xml"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillscript/skillc/internal/host/registry"
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

// FuzzCatalogXML: the catalog is well-formed XML and the description
// comes back unchanged apart from characters XML cannot carry.
func FuzzCatalogXML(f *testing.F) {
	f.Add("pdf", "Extracts <text> & more", "user")
	f.Add("a\"b", "\x00\x01]]></skill>", "mcp:x&y")
	f.Add("x", "\xff\xfe bad utf-8", "")
	f.Fuzz(func(t *testing.T, name, desc, origin string) {
		out := AvailableSkills([]*registry.Record{{Name: name, Kind: registry.KindPackage, Origin: origin, Description: desc, Location: "/l"}}, 1<<20)
		dec := xml.NewDecoder(strings.NewReader(out))
		var got strings.Builder
		inDesc := false
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not XML: %v\n%q", err, out)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				inDesc = tok.Name.Local == "description"
			case xml.EndElement:
				inDesc = false
			case xml.CharData:
				if inDesc {
					got.Write(tok)
				}
			}
		}
		if want := sanitizeXML(desc); got.String() != want {
			t.Fatalf("description %q came back as %q", want, got.String())
		}
	})
}

// sanitizeXML is the reference for what escaping keeps: every valid
// rune XML can carry, U+FFFD for the rest; "\r\n" and "\r" read as "\n".
func sanitizeXML(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r) && !strings.ContainsRune("&<>\"'", r) || r == utf8.RuneError && w == 1 {
			r = '\uFFFD'
		}
		b.WriteRune(r)
		i += w
	}
	return strings.ReplaceAll(strings.ReplaceAll(b.String(), "\r\n", "\n"), "\r", "\n")
}
