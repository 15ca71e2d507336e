package lang_test

import (
	"testing"

	"github.com/skillscript/skillc/internal/lang"
)

func TestMutationClassification(t *testing.T) {
	for tool, want := range map[string]bool{
		"create_issue": true, "sendMessage": true, "issues.delete": true, "search_issues": false,
		"get_current_user": false, "list_events": false, "update": true, "settings": false,
	} {
		if got := lang.IsMutatingTool(tool); got != want {
			t.Errorf("IsMutatingTool(%q) = %v, want %v", tool, got, want)
		}
	}
	for bin, want := range map[string]bool{"rm": true, "/bin/mv": true, "mkfs.ext4": true, "ls": false, "cat": false} {
		if got := lang.IsDestructiveBinary(bin); got != want {
			t.Errorf("IsDestructiveBinary(%q) = %v, want %v", bin, got, want)
		}
	}
}
