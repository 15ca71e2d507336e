package approval

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// jsSpace is ECMAScript's \s, written out for the reference canonicalizer.
const jsSpace = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

// unsignedRef is the rule as a regular expression, with ASCII-only case
// folding (an ECMAScript /i expression does not fold ſ to s).
var unsignedRef = regexp.MustCompile(`^` + jsSpace + `*#` + jsSpace + `*(?:[Ss][Tt][Aa][Tt][Uu][Ss]|[Tt][Aa][Gg][Ss])` + jsSpace + `*:`)

// refCanonical is an independent, regexp-based statement of the signing
// input, used to check Canonical.
func refCanonical(src string) string {
	text := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(src)
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if !unsignedRef.MatchString(l) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

func TestCanonical(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"plain", "# Skill: a\nbody\n", "# Skill: a\nbody\n"},
		{"status and tags removed", "# Skill: a\n# Status: Approved v3:x\n# Tags: a, b\nbody\n", "# Skill: a\nbody\n"},
		{"crlf", "# Skill: a\r\n# Status: Draft\r\nbody\r\n", "# Skill: a\nbody\n"},
		{"lone cr", "# Skill: a\r# Tags: x\rbody", "# Skill: a\nbody"},
		{"case and spacing", "  #  sTaTuS  : draft\n#TAGS:x\n\t# tags\t:\nkeep\n", "keep\n"},
		{"nbsp and bom count as space", "\u00a0# Status: x\n\ufeff#\u2003Tags: y\nkeep", "keep"},
		{"near misses kept", "# Statuses: x\n# Tag: y\n# Status\n## Status: x\nx # Status: y\n", "# Statuses: x\n# Tag: y\n# Status\n## Status: x\nx # Status: y\n"},
		{"long s is not s", "# ſtatus: x\n", "# ſtatus: x\n"},
		{"trailing spaces, blank lines, deadline, classification signed", "# Deadline: 30  \n\n\n# Classification: role=utility\n", "# Deadline: 30  \n\n\n# Classification: role=utility\n"},
		{"only status", "# Status: Approved v3:x\n", ""},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(Canonical([]byte(c.src)))
			if got != c.want {
				t.Errorf("Canonical(%q) = %q, want %q", c.src, got, c.want)
			}
			if ref := refCanonical(c.src); ref != got {
				t.Errorf("reference canonicalizer disagrees: %q vs %q", ref, got)
			}
		})
	}
}

func TestContentHashStableAcrossUnsignedEdits(t *testing.T) {
	a := ContentHash([]byte("# Skill: a\n# Status: Draft\n# Tags: x\nbody\n"))
	b := ContentHash([]byte("# Skill: a\r\n# Status: Approved v3:abc\r\n# Tags: y, z\r\nbody\r\n"))
	c := ContentHash([]byte("# Skill: a\nbody \n"))
	if a != b {
		t.Errorf("status/tags/CRLF edits changed the hash: %s vs %s", a, b)
	}
	if a == c {
		t.Errorf("a trailing space did not change the hash")
	}
	if !strings.HasPrefix(a, "sha256:") || len(a) != len("sha256:")+64 {
		t.Errorf("hash %q is not sha256:<64 hex>", a)
	}
}

func TestCanonicalTestdataMatchesReference(t *testing.T) {
	for _, src := range seeds(t) {
		if got, ref := string(Canonical(src)), refCanonical(string(src)); got != ref {
			t.Errorf("Canonical(%q) = %q, reference %q", src, got, ref)
		}
	}
}

// seeds returns the skills in testdata.
func seeds(t testing.TB) [][]byte {
	paths, err := filepath.Glob("testdata/*.skill.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata skills: %v", err)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}
