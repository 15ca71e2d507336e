package lang

import (
	"path/filepath"
	"strings"
	"unicode"
)

// Mutation classification (DECISIONS 16) is shared by the linter
// (unconfirmed-mutation) and the evaluator (the run-time mutation gate), so
// that what the linter warns about is exactly what the runtime refuses.

// mutatingVerbs are the tool-name words that make a "$ conn.tool" mutating.
var mutatingVerbs = map[string]bool{
	"create": true, "update": true, "delete": true, "write": true, "send": true,
	"post": true, "put": true, "remove": true, "patch": true, "insert": true,
	"upsert": true, "drop": true, "destroy": true, "publish": true, "upload": true,
	"merge": true, "close": true, "archive": true, "move": true, "rename": true,
	"modify": true, "edit": true, "commit": true, "push": true, "deploy": true,
	"cancel": true, "kill": true, "revoke": true, "grant": true, "transfer": true,
	"charge": true, "pay": true, "submit": true, "assign": true, "invite": true,
	"set": true, "add": true, "reply": true, "comment": true, "purge": true,
	"truncate": true, "replace": true, "approve": true, "reject": true,
	"prune": true, "expire": true, "consolidate": true, "reset": true,
	"rotate": true, "overwrite": true, "clear": true, "wipe": true,
	"finalize": true,
}

// destructiveBinaries are shell binaries whose use mutates state.
var destructiveBinaries = map[string]bool{
	"rm": true, "rmdir": true, "unlink": true, "mv": true, "cp": true, "dd": true,
	"mkfs": true, "shred": true, "truncate": true, "wipefs": true, "fdisk": true,
	"sfdisk": true, "parted": true, "mkswap": true, "fsck": true, "chmod": true,
	"chown": true, "chgrp": true, "ln": true, "install": true, "tee": true,
	"mkdir": true, "touch": true, "kill": true, "killall": true, "pkill": true,
	"shutdown": true, "reboot": true, "halt": true, "poweroff": true,
	"systemctl": true, "crontab": true, "useradd": true, "userdel": true,
	"usermod": true, "passwd": true,
}

// IsMutatingTool reports whether a tool name contains a mutating verb as a
// word (create_issue, sendMessage, issues.delete, ...).
func IsMutatingTool(tool string) bool {
	for _, w := range toolWords(tool) {
		if mutatingVerbs[w] {
			return true
		}
	}
	return false
}

// Declared is what configuration or tool discovery states about whether a
// tool mutates state.
type Declared int8

// The declarations a tool can carry.
const (
	Unstated         Declared = iota // nothing said: the name heuristic decides
	DeclaredReadOnly                 // "mutating": false
	DeclaredMutating                 // "mutating": true (or listed in "mutating": [...])
)

// ToolFacts are the declarations that override the verb heuristic of
// IsMutatingTool for one "$ conn.tool".
type ToolFacts struct {
	// Tool is the tool's own "mutating" in connectors.json.
	Tool Declared
	// Connector is the connector's "mutating": true, false, or a list
	// naming the tool (DeclaredMutating).
	Connector Declared
	// ReadOnlyHint and DestructiveHint are the MCP tool annotations the
	// server reported in tools/list.
	ReadOnlyHint, DestructiveHint bool
}

// ToolMutation classifies "$ conn.tool" for the linter, the approval
// footprint and the run-time gate alike: it returns why the tool mutates
// state, or "" when it does not. The operator's word wins over the
// server's, the specific over the general, and any declaration over the
// name heuristic: the tool's own "mutating" in connectors.json, then the
// connector's "mutating": true (or a list naming the tool), then the
// annotation destructiveHint: true, then the connector's "mutating": false,
// then readOnlyHint: true, and last the mutating verbs of IsMutatingTool.
func ToolMutation(tool string, f ToolFacts) string {
	switch {
	case f.Tool == DeclaredMutating:
		return "connectors.json declares " + tool + " mutating"
	case f.Tool == DeclaredReadOnly:
		return ""
	case f.Connector == DeclaredMutating:
		return "connectors.json declares " + tool + " mutating"
	case f.DestructiveHint:
		return "tool " + tool + " is annotated destructiveHint: true"
	case f.Connector == DeclaredReadOnly, f.ReadOnlyHint:
		return ""
	case IsMutatingTool(tool):
		return "tool " + tool + " has a mutating verb"
	}
	return ""
}

// IsDestructiveBinary reports whether a shell binary (a name or a path) is
// on the list of state-changing commands (rm, mv, dd, mkfs.ext4, ...).
func IsDestructiveBinary(binary string) bool {
	name := filepath.Base(binary)
	if prefix, _, ok := strings.Cut(name, "."); ok && (prefix == "mkfs" || prefix == "fsck") {
		name = prefix
	}
	return destructiveBinaries[name]
}

// toolWords splits a tool name at '_', '-', '.', spaces and lower-to-upper
// case changes, lower-casing the words.
func toolWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}
