package lint

import (
	"strings"
	"testing"
)

// TestLoopHintScanAndMap checks that the foreach hint of undeclared-var is
// the same whether loopBinding answers by scanning the bindings (the first
// loopScanLimit questions) or from its map (the later ones).
func TestLoopHintScanAndMap(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Skill: hints\n# Vars: LIST=a,b\nrun:\n    foreach ITEM in ${LIST}:\n        emit(text=\"${ITEM}\")\n")
	refs := 2*loopScanLimit + 1
	for range refs {
		b.WriteString("    emit(text=\"${ITEM}\")\n")
	}
	b.WriteString("default: run\n")
	_, _, ds := Check("hints.skill.md", []byte(b.String()), nil, Options{})
	hinted := 0
	for _, d := range ds {
		if d.Rule == "undeclared-var" {
			if !strings.Contains(d.Message, "bound only inside the foreach at line 4") {
				t.Errorf("undeclared-var without the foreach hint: %s", d.Message)
			}
			hinted++
		}
	}
	if hinted != refs {
		t.Errorf("%d undeclared-var findings, want %d (one per reference outside the loop)", hinted, refs)
	}
}
