package secret

import (
	"strings"
	"testing"
)

// FuzzResolve checks that Resolve never panics, that a successful resolve
// leaves no marker behind, and that redacting the result removes the value.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"Bearer {{secret.AGENTMAIL_KEY}}", "{{secret.${N}}}", "{{secret.EMPTY}}{{secret.", "plain"} {
		f.Add(s)
	}
	r := resolver()
	red := r.Redactor()
	f.Fuzz(func(t *testing.T, s string) {
		markers, findErr := Find(s)
		for _, m := range markers {
			if s[m.Start:m.End] != m.Text() {
				t.Fatalf("marker %+v does not match %q", m, s[m.Start:m.End])
			}
		}
		got, err := r.Resolve(s)
		if (findErr != nil) && err == nil {
			t.Fatalf("malformed %q resolved", s)
		}
		if err != nil || strings.Contains(s, "S3cret") {
			return
		}
		if len(markers) > 0 && strings.Contains(got, "{{secret.AGENTMAIL_KEY}}") {
			t.Fatalf("marker left in %q", got)
		}
		if strings.Contains(red.Redact(got), key) {
			t.Fatalf("redacted output of %q still holds the value", s)
		}
	})
}
