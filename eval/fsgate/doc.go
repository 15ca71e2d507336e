// Package fsgate confines file_read and file_write to the operator's
// filesystem allowlist (SKILLSCRIPT_FS_ALLOWLIST).
//
// A [Gate] holds canonical root directories. The zero Gate, like an unset
// allowlist, refuses every path. A path is allowed when, after resolving it
// physically, it is a root or lies beneath one.
//
// Resolution walks the path one component at a time against the real
// filesystem: every symbolic link is followed (dangling ones too, to where
// they point), and ".." steps back from the physical directory reached so
// far, never lexically across a link. Components that do not exist yet are
// taken as written, so a file_write to a new file below a new directory is
// checked at the place it will be created. The operation then runs on the
// resolved path, not the path as given.
//
// The check and the operation are two system calls; a process that swaps
// a directory for a symlink in between could still win that race. The gate
// closes the path-spelling escapes (.., symlinks, dangling symlinks) that a
// skill can produce by itself; it is not a sandbox against a hostile local
// process.
package fsgate
