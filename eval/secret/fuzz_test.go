package secret

import (
	"strings"
	"testing"
)

// FuzzResolve checks that Resolve never panics, that a successful resolve
// leaves no sentinel behind, and that redacting the result removes the
// value. The fuzzed text is split at '|' and a sentinel placed at every
// split, so references land at arbitrary offsets.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"Bearer |", "{{secret.${N}}}|", "|{{secret.", "plain", "a\x00b|c"} {
		f.Add(s)
	}
	b := testBox()
	f.Fuzz(func(t *testing.T, s string) {
		in := strings.ReplaceAll(s, "|", b.Sentinel("AGENTMAIL_KEY"))
		got, err := b.Resolve(in)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", in, err)
		}
		if b.Has(got) {
			t.Fatalf("sentinel left in %q", got)
		}
		if strings.Contains(s, "S3cret") {
			return
		}
		if strings.Contains(b.Redact(got), key) {
			t.Fatalf("redacted output of %q still holds the value", s)
		}
	})
}
