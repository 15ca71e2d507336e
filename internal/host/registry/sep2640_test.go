package registry

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestEntry checks the SEP-2640 shape: SKILL.md URI ending in the name,
// frontmatter verbatim, one resource per file with sha256 digests, and no
// entry for a skillscript.
func TestEntry(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{
		"report/SKILL.md":             "---\nname: report\ndescription: Writes reports.\nmetadata:\n  team: finance\nx-custom: [1, 2]\n---\nbody\n",
		"report/references/a file.md": "a",
		"greet.skill.md":              fmt.Sprintf(script, "greet", "Greets."),
	})
	r := New(Options{Roots: []Root{{base, OriginProject}}})
	r.Refresh()
	rec, _ := r.Lookup("report")
	e, err := rec.Entry("acme/tools")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(e)
	got := string(b)
	for _, want := range []string{
		`"uri":"skill://acme/tools/report/SKILL.md"`,
		`"frontmatter":{"description":"Writes reports.","metadata":{"team":"finance"},"name":"report","x-custom":[1,2]}`,
		`"uri":"skill://acme/tools/report/references/a%20file.md"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in %s", want, got)
		}
	}
	digest := regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	for _, res := range e.Resources {
		if !digest.MatchString(res.Digest) {
			t.Errorf("digest %q", res.Digest)
		}
	}
	if len(e.Resources) != 2 || e.Resources[0].Size == 0 {
		t.Errorf("resources %+v", e.Resources)
	}
	script, _ := r.Lookup("greet")
	if _, err := script.Entry(""); err == nil {
		t.Error("a skillscript must not be published as an MCP skill")
	}
}
