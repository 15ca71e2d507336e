package contract

import "testing"

// TestContentHashOf checks that the []byte form is the same digest as
// ContentHash, which traces, approvals and the skill stores key on.
func TestContentHashOf(t *testing.T) {
	for _, s := range []string{"", "# Skill: s\nrun:\n    emit(text=\"hi\")\n", "é\x00\xff"} {
		if got, want := ContentHashOf([]byte(s)), ContentHash(s); got != want {
			t.Errorf("ContentHashOf(%q) = %s, want %s", s, got, want)
		}
	}
	if got := ContentHash(""); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("ContentHash(\"\") = %s, not the SHA-256 of nothing", got)
	}
}
