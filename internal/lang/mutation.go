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
