package shellexec

import (
	"path/filepath"
	"strings"
)

// IsDestructive reports whether a binary is on the heuristic list of
// destructive verbs (rm, mv, dd, mkfs and friends) that makes a structural
// shell op mutation-classified. The binary may be a bare name or a path;
// mkfs.ext4 and similar variants count as mkfs.
func IsDestructive(binary string) bool {
	name := filepath.Base(binary)
	if prefix, _, ok := strings.Cut(name, "."); ok && (prefix == "mkfs" || prefix == "fsck") {
		name = prefix
	}
	switch name {
	case "rm", "rmdir", "unlink", "mv", "dd", "mkfs", "shred", "truncate", "wipefs",
		"fdisk", "sfdisk", "parted", "mkswap", "fsck",
		"chmod", "chown", "chgrp", "ln", "install",
		"kill", "killall", "pkill",
		"shutdown", "reboot", "halt", "poweroff", "systemctl",
		"crontab", "useradd", "userdel", "usermod", "passwd":
		return true
	}
	return false
}
