package shellexec

import "github.com/skillscript/skillc/internal/lang"

// IsDestructive reports whether a binary is on the heuristic list of
// destructive verbs (rm, mv, dd, mkfs and friends) that makes a structural
// shell op mutation-classified. The list is shared with the linter
// (lang.IsDestructiveBinary) so the lint warning and the run-time gate agree.
func IsDestructive(binary string) bool { return lang.IsDestructiveBinary(binary) }
