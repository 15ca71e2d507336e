// Package shellexec runs the three forms of the skillscript shell op under
// the operator's gates.
//
//	shell(command="git status")                  structural: tokenized, then exec argv
//	shell(argv=["jq", "-c", "${F}", "x.json"])   explicit argv: exec as given
//	shell(command="a | b", unsafe=true)          bash -c, only when enabled
//
// No form goes through a shell except the unsafe one. Before anything runs,
// [Runner.Check] applies the two operator gates: the binary allowlist
// (default deny: an empty allowlist refuses everything, and the unsafe form
// needs bash itself on the list) and the unsafe switch. Only after the gates
// pass does the runner call its Resolve hook (where {{secret.NAME}} markers
// are filled in), so a refused op never touches a secret.
//
// A run has an optional timeout; on expiry, or when the caller's context
// ends, the whole process group is killed, so no grandchild outlives the op.
// The child gets no stdin, and the SKILLSCRIPT_SECRET_* variables are
// removed from its environment: secrets reach a process only through
// markers placed in its arguments.
//
// Allowlist entries are bare names ("curl") or absolute paths
// ("/usr/bin/curl"). A bare entry admits the bare name only, looked up on
// PATH; an absolute entry admits that exact path, and a bare name that PATH
// resolves to it. A path such as /tmp/x/curl is never admitted by the bare
// entry "curl".
//
// The structural tokenizer is internal/leaf/shellwords (its package doc gives
// the quoting rules); an unterminated quote fails the op loud. The
// evaluator tokenizes the command's literal text before substituting
// (shellwords.TokenizeTemplate) and hands the result over as Argv, so a
// substituted value is always exactly inside one argv entry.
//
// The structural and argv forms are classified through wrapper commands
// (lang.ClassifyShell): every program of the chain (env rm: env and rm)
// must be on the allowlist, and a command interpreter given code (bash -c,
// sh script, python -c) is refused with *FullShellError: that is a full
// shell, which only the unsafe form may run.
package shellexec
