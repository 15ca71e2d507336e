package wantmark

import (
	"strings"
	"testing"
)

func TestExpectations(t *testing.T) {
	src := "# Skill: x\n# want-above: header-case\nt:\n    emit(text=\"${A}\")  # want: undeclared-var, unbounded-no-deadline\n# want-below: template-looks-like-target\nsummary:\n"
	got := strings.Join(Expectations([]byte(src)), "|")
	want := "1 header-case|4 unbounded-no-deadline|4 undeclared-var|6 template-looks-like-target"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
