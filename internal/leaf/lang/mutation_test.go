package lang_test

import (
	"testing"

	"github.com/skillscript/skillc/internal/leaf/lang"
)

func TestMutationClassification(t *testing.T) {
	for tool, want := range map[string]bool{
		"create_issue": true, "sendMessage": true, "issues.delete": true, "search_issues": false,
		"get_current_user": false, "list_events": false, "update": true, "settings": false,
		// Every verb of the mutating-verb list, as snake, kebab and camel.
		"ops.wipe_cache": true, "wipeCache": true, "wipe-cache": true, "WipeCache": true,
		"prune_old": true, "expireTokens": true, "consolidate-memories": true, "reset_password": true,
		"rotateKeys": true, "overwrite_file": true, "clear-cache": true, "finalizeInvoice": true,
		"write_note": true, "update_row": true, "delete_x": true, "removeY": true, "set_flag": true,
		"create-z": true, "insertRow": true, "put_object": true, "patchDoc": true, "destroy_vm": true,
		"archive-thread": true, "deployApp": true, "purge_queue": true, "moveFile": true,
		"rename_dir": true, "drop_table": true, "truncateLog": true, "upsert-user": true,
		// Words that merely contain a verb are not verbs.
		"clearance_level": false, "resetting": false, "settlement": false, "wiper": false,
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

func TestToolMutationDeclarations(t *testing.T) {
	for _, c := range []struct {
		tool string
		f    lang.ToolFacts
		want bool
	}{
		{"add", lang.ToolFacts{}, true},                                  // heuristic: "add" is a skillc verb
		{"add", lang.ToolFacts{Tool: lang.DeclaredReadOnly}, false},      // tool "mutating": false
		{"add", lang.ToolFacts{Connector: lang.DeclaredReadOnly}, false}, // connector "mutating": false
		{"add", lang.ToolFacts{ReadOnlyHint: true}, false},               // MCP readOnlyHint
		{"search", lang.ToolFacts{DestructiveHint: true}, true},          // MCP destructiveHint
		{"search", lang.ToolFacts{DestructiveHint: true, ReadOnlyHint: true}, true},
		{"search", lang.ToolFacts{Connector: lang.DeclaredMutating}, true},
		{"search", lang.ToolFacts{Tool: lang.DeclaredMutating, Connector: lang.DeclaredReadOnly}, true},
		{"delete", lang.ToolFacts{Tool: lang.DeclaredReadOnly, Connector: lang.DeclaredMutating}, false},
		{"delete", lang.ToolFacts{Connector: lang.DeclaredReadOnly, DestructiveHint: true}, true},
	} {
		if got := lang.ToolMutation(c.tool, c.f) != ""; got != c.want {
			t.Errorf("ToolMutation(%q, %+v) mutating = %v, want %v", c.tool, c.f, got, c.want)
		}
	}
}
