package skillrt

import (
	"regexp"
	"strings"
	"testing"
)

// toolNameRE is the tool-name pattern model APIs accept.
var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// TestToolNamesHaveNoDots: the dotted names of the seed spec would be
// refused; ours pass, and run_script is offered only when enabled.
func TestToolNamesHaveNoDots(t *testing.T) {
	if toolNameRE.MatchString("skills.load") {
		t.Fatal("the pattern should refuse dotted names")
	}
	rt, _ := fixture(t, Options{})
	if got := strings.Join(rt.ToolNames(), " "); got != "skills_load skills_unload skills_read" {
		t.Errorf("tools %q", got)
	}
	rt, _ = fixture(t, Options{Scripts: ScriptOptions{Enabled: true}})
	for _, n := range rt.ToolNames() {
		if !toolNameRE.MatchString(n) {
			t.Errorf("%s does not match the tool-name pattern", n)
		}
	}
	if len(rt.ToolNames()) != 4 {
		t.Errorf("run_script missing: %v", rt.ToolNames())
	}
}
