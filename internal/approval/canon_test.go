package approval

import (
	"errors"
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

// The reference splitter of the header region (DECISIONS 29), written
// independently of canon.go: lines are the parser's ("\n"-terminated,
// the "\r" of "\r\n" dropped); a line is blank, a '#' line, indented
// YAML under # Tests:, or the first body line. Only Status/Tags lines of
// the header region are left out; any other line matching the pattern,
// and any '#' line led by white space other than spaces and tabs, makes
// the skill unsignable, as does a header line joined to other text by a
// bare "\r".
var (
	refFenceOpen  = regexp.MustCompile("^\\s*```+\\s*(skillscript|skill)\\s*$")
	refFenceClose = regexp.MustCompile("^\\s*```+\\s*$")
	refHashLine   = regexp.MustCompile(`^` + jsSpace + `*#`)
	refBlankLine  = regexp.MustCompile(`^[ \t\r]*$`)
	refJSBlank    = regexp.MustCompile(`^` + jsSpace + `*$`)
	refOddLead    = regexp.MustCompile(`^[ \t]*[\v\f\r\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]` + jsSpace + `*#`)
)

// refTestsHeader: a column-0 "# Tests:" line as the parser reads it
// (ASCII case folding of the key).
func refTestsHeader(l string) bool {
	if !strings.HasPrefix(l, "#") {
		return false
	}
	l = strings.TrimLeft(l[1:], " \t")
	if len(l) < 5 || !strings.EqualFold(l[:5], "tests") || strings.ContainsRune(l[:5], 'ſ') {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(l[5:], " \t"), ":")
}

// refSplit returns the signing input of src and the first line (1-based)
// that makes it unsignable, 0 when none.
func refSplit(src string) (canon string, bad int) {
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines)-1; i++ {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	text := func(i int) string {
		if i == 0 {
			return strings.TrimPrefix(lines[0], "\ufeff")
		}
		return lines[i]
	}
	lo, hi := 0, len(lines) // the skill: lines[lo:hi]
	for i := range lines {
		if refFenceOpen.MatchString(text(i)) {
			lo = i + 1
			for j := i + 1; j < len(lines); j++ {
				if refFenceClose.MatchString(lines[j]) {
					hi = j
					break
				}
			}
			break
		}
	}
	refuse := func(i int) {
		if bad == 0 {
			bad = i + 1
		}
	}
	var kept []string
	mode := "header"
	for i := range lines {
		t := text(i)
		header := false
		if i >= lo && i < hi {
			switch {
			case mode == "body", refBlankLine.MatchString(t):
			case mode == "tests" && (t[0] == ' ' || t[0] == '\t'):
			case refHashLine.MatchString(t):
				header = true
				mode = "header"
				if refTestsHeader(t) {
					mode = "tests"
				}
			default:
				mode = "body"
			}
		}
		if refOddLead.MatchString(t) {
			refuse(i)
		}
		dropped, other := false, false
		for k, seg := range strings.Split(lines[i], "\r") {
			if k > 0 && refOddLead.MatchString(seg) {
				refuse(i)
			}
			switch {
			case unsignedRef.MatchString(seg) && header:
				dropped = true
				continue
			case unsignedRef.MatchString(seg):
				refuse(i)
			case !refJSBlank.MatchString(seg):
				other = true
			}
			kept = append(kept, seg)
		}
		if dropped && other {
			refuse(i)
		}
	}
	return strings.Join(kept, "\n"), bad
}

// checkAgainstRef compares Canonical and CheckSignable with refSplit, and,
// for a signable source, Canonical with the reference runtime's rule.
func checkAgainstRef(t *testing.T, src []byte) {
	t.Helper()
	got := string(Canonical(src))
	ref, bad := refSplit(string(src))
	if got != ref {
		t.Fatalf("Canonical(%q) = %q, reference %q", src, got, ref)
	}
	err := CheckSignable(src)
	var ue *UnsignableLineError
	switch {
	case bad == 0 && err != nil:
		t.Fatalf("CheckSignable(%q) = %v, reference: signable", src, err)
	case bad != 0 && (!errors.As(err, &ue) || ue.Line != bad):
		t.Fatalf("CheckSignable(%q) = %v, reference: line %d", src, err, bad)
	case bad == 0 && got != refCanonical(string(src)):
		t.Fatalf("signable %q: signing input %q differs from the reference runtime's %q", src, got, refCanonical(string(src)))
	}
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
			checkAgainstRef(t, []byte(c.src))
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
		checkAgainstRef(t, src)
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
