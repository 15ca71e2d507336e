package lang

import (
	"path/filepath"
	"strings"
)

// ShellClass is what a structural shell argv does, seen through wrapper
// commands (env, nice, timeout, sudo, xargs, ...). The linter and the
// run-time gate both classify with ClassifyShell, so what the linter
// warns about is what the runtime gates (issue 13 item 5).
type ShellClass struct {
	// Chain lists every program the argv runs, the wrappers first and the
	// program they run last (for xargs, the program it would start). Each
	// must pass the shell allowlist. An entry is "" when the argv names the
	// program through something the classifier cannot see (a substitution
	// the linter does not know).
	Chain []string
	// FullShell is set when the argv runs a command interpreter on code
	// given in its arguments or a script (bash -c, sh script.sh,
	// python -c, ...): a full shell, allowed only as unsafe=true.
	FullShell bool
	// Mutating says why the argv changes state ("" when it does not): a
	// destructive binary (rm, mv, ...) or a destructive flag of an
	// otherwise harmless one (find -delete, sed -i, ...).
	Mutating string
}

// Program returns the last program of the chain, the one that does the
// work ("" when unknown).
func (c ShellClass) Program() string {
	if len(c.Chain) == 0 {
		return ""
	}
	return c.Chain[len(c.Chain)-1]
}

// wrapper describes a command that runs another command given in its
// arguments: the options that take a separate value, and how many
// operands come before the command (timeout's duration, chroot's
// directory).
type wrapper struct {
	valueOpts string   // short options taking a value ("u" for sudo -u USER)
	longValue []string // long options taking a separate value
	operands  int      // positional operands before the command
	assigns   bool     // NAME=VALUE words may precede the command (env)
	stdinArgs bool     // the command's arguments come from stdin (xargs)
}

// wrappers are the commands that run the command in their arguments.
var wrappers = map[string]wrapper{
	"env":         {valueOpts: "uCS", longValue: []string{"--unset", "--chdir", "--split-string"}, assigns: true},
	"nice":        {valueOpts: "n", longValue: []string{"--adjustment"}},
	"timeout":     {valueOpts: "sk", longValue: []string{"--signal", "--kill-after"}, operands: 1},
	"sudo":        {valueOpts: "ugpCDhrtTUR", longValue: []string{"--user", "--group", "--prompt", "--close-from", "--chdir", "--host", "--role", "--type", "--command-timeout", "--other-user", "--chroot"}},
	"doas":        {valueOpts: "uC"},
	"nohup":       {},
	"stdbuf":      {valueOpts: "ioe", longValue: []string{"--input", "--output", "--error"}},
	"ionice":      {valueOpts: "cnp", longValue: []string{"--class", "--classdata", "--pid"}},
	"command":     {},
	"exec":        {valueOpts: "a"},
	"xargs":       {valueOpts: "aEdeIiLlnPs", longValue: []string{"--arg-file", "--eof", "--delimiter", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, stdinArgs: true},
	"setsid":      {},
	"time":        {valueOpts: "fo", longValue: []string{"--format", "--output"}},
	"chroot":      {longValue: []string{"--userspec", "--groups"}, operands: 1},
	"taskset":     {operands: 1},
	"chrt":        {operands: 1},
	"flock":       {valueOpts: "wEc", longValue: []string{"--timeout", "--conflict-exit-code", "--command"}, operands: 1},
	"unbuffer":    {},
	"runuser":     {valueOpts: "ugGw", longValue: []string{"--user", "--group", "--supp-group", "--whitelist-environment"}},
	"watch":       {valueOpts: "nd", longValue: []string{"--interval", "--differences"}},
	"strace":      {valueOpts: "eoOpsSuEIXbP"},
	"ltrace":      {valueOpts: "eoOpsSuEIXbP"},
	"busybox":     {},
	"caffeinate":  {valueOpts: "tw"},
	"unshare":     {},
	"nsenter":     {valueOpts: "tSG"},
	"firejail":    {},
	"proot":       {},
	"fakeroot":    {},
	"systemd-run": {valueOpts: "pEM", longValue: []string{"--property", "--setenv", "--unit", "--machine", "--description", "--slice", "--uid", "--gid"}},
}

// shells are command interpreters: any use runs arbitrary code (an
// inline -c script, a script file, or their own language).
var shells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true,
	"fish": true, "csh": true, "tcsh": true, "ash": true, "rbash": true, "yash": true,
	"pwsh": true, "powershell": true, "su": true,
}

// interpreters run inline code given with one of their flags.
var interpreters = map[string]string{
	"python": "c", "python2": "c", "python3": "c", "perl": "eE", "ruby": "e",
	"node": "ep", "nodejs": "ep", "php": "r", "lua": "e", "osascript": "e", "Rscript": "e", "bun": "e",
}

// codeRunners run program text in their own language from a script
// file, an inline flag or a command file (issue 22 item 6): every use of
// one but a version or help query is a full shell. The interpreters above
// are among them.
var codeRunners = map[string]bool{
	"python": true, "perl": true, "ruby": true, "node": true, "nodejs": true, "php": true,
	"lua": true, "luajit": true, "tclsh": true, "wish": true, "expect": true, "osascript": true,
	"Rscript": true, "R": true, "bun": true, "deno": true, "julia": true, "jshell": true,
	"groovy": true, "scala": true, "guile": true, "racket": true, "sbcl": true, "clisp": true,
	"ocaml": true, "runghc": true, "ghci": true, "swift": true, "irb": true, "jruby": true,
	"pypy": true, "pypy3": true, "gdb": true, "ed": true, "ex": true, "vi": true, "vim": true,
	"nvim": true, "emacs": true, "m4": true, "make": true, "gmake": true, "gnuplot": true,
	"dc": true, "sqlite3": true, "psql": true, "mysql": true,
}

// versionQuery reports whether args only ask an interpreter for its
// version or help.
func versionQuery(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		switch a {
		case "-V", "-v", "--version", "-version", "-h", "--help", "-help":
		default:
			return false
		}
	}
	return true
}

// ClassifyShell classifies a structural shell argv (see ShellClass). Words
// the caller does not know (substitutions seen by the linter) are "".
func ClassifyShell(argv []string) ShellClass {
	var c ShellClass
	for len(argv) > 0 {
		name := programName(argv[0])
		c.Chain = append(c.Chain, argv[0])
		if shells[name] {
			c.FullShell = true
			c.Mutating = "runs a full shell"
			return c
		}
		if flags, ok := interpreters[name]; ok && interpreterInline(name, flags, argv[1:]) {
			c.FullShell = true
			c.Mutating = "runs " + name + " on inline code"
			return c
		}
		if codeRunners[name] && !versionQuery(argv[1:]) {
			c.FullShell = true
			c.Mutating = "runs " + name + " code (a script file or its own commands)"
			return c
		}
		if v := scriptProgram(name, argv[1:]); v.full {
			c.FullShell = true
			c.Mutating = v.why
			return c
		} else if v.why != "" {
			c.Mutating = v.why
			if why := mutatingUse(argv); why != "" {
				c.Mutating = why
			}
			return c
		}
		w, ok := wrappers[name]
		if !ok {
			c.Mutating = mutatingUse(argv)
			return c
		}
		if name == "command" && hasShortFlag(argv[1:], "vV") {
			return c // command -v only looks the name up
		}
		rest, shellCmd := w.skip(argv[1:])
		if shellCmd != "" { // env -S "cmd args", flock -c "cmd": a command line
			c.FullShell = true
			c.Mutating = name + " runs a command line"
			return c
		}
		if len(rest) == 0 && w.stdinArgs {
			rest = []string{"echo"} // xargs without a command runs echo
		}
		argv = rest
	}
	return c
}

// programName is the base name of a program path, with the version suffix
// of interpreters (python3.12) and mkfs/fsck variants folded.
func programName(p string) string {
	name := filepath.Base(p)
	if p == "" {
		return ""
	}
	if strings.HasPrefix(name, "python") {
		return "python"
	}
	for _, base := range versioned {
		if strings.HasPrefix(name, base) && strings.Trim(name[len(base):], "0123456789.-") == "" {
			return base
		}
	}
	return name
}

// versioned are interpreters installed under versioned names (perl5.36,
// lua5.4, tclsh8.6, ruby3.1, php8.2).
var versioned = []string{"perl", "ruby", "php", "luajit", "lua", "tclsh", "wish", "node", "pypy", "guile", "gawk", "mawk"}

// scriptProgram classifies the program text of sed and the awk family;
// other programs give the zero verdict.
func scriptProgram(name string, args []string) scriptVerdict {
	switch {
	case sedPrograms[name]:
		return sedScript(args)
	case awkPrograms[name]:
		return awkScript(args)
	}
	return scriptVerdict{}
}

// skip steps over a wrapper's options and operands and returns the
// wrapped argv. A value that is itself a command line (env -S, flock -c,
// su -c) is returned as shellCmd.
func (w wrapper) skip(args []string) (rest []string, shellCmd string) {
	operands := w.operands
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return w.afterOperands(args[i+1:], operands), ""
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a, "=")
			if name == "--split-string" || name == "--command" {
				return nil, "command line"
			}
			if !hasValue && contains(w.longValue, name) {
				i++
			}
		case len(a) > 1 && a[0] == '-':
			// a cluster of short options; the first one taking a value
			// takes the rest of the word or the next word
			for j := 1; j < len(a); j++ {
				if !strings.ContainsRune(w.valueOpts, rune(a[j])) {
					continue
				}
				if (a[j] == 'S' && w.assigns) || (a[j] == 'c' && w.operands == 1 && w.valueOpts == "wEc") {
					return nil, "command line"
				}
				if j == len(a)-1 {
					i++
				}
				break
			}
		case w.assigns && strings.Contains(a, "=") && !strings.HasPrefix(a, "="):
		case operands > 0:
			operands--
		default:
			return args[i:], ""
		}
	}
	return nil, ""
}

func (w wrapper) afterOperands(args []string, operands int) []string {
	if operands > len(args) {
		return nil
	}
	return args[operands:]
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// interpreterInline reports whether an interpreter gets inline code with
// one of its inline-code flags (python -c, perl -e, node --eval, ...).
func interpreterInline(name, flags string, args []string) bool {
	return hasShortFlag(args, flags) || (name == "node" && containsPrefix(args, "--eval")) || (name == "php" && len(args) == 0)
}

func containsPrefix(args []string, prefix string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}

// hasShortFlag reports whether a short-option word in args ("-c", "-lc",
// "-xec") contains one of the letters.
func hasShortFlag(args []string, letters string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], letters) {
			return true
		}
	}
	return false
}

// mutatingUse says why running argv (a program that is not a wrapper)
// changes state, or "".
func mutatingUse(argv []string) string {
	bin := argv[0]
	if IsDestructiveBinary(bin) {
		return "shell binary " + programName(bin) + " changes files"
	}
	name := programName(bin)
	args := argv[1:]
	if check := destructiveFlags[name]; check != nil {
		if flag := check(args); flag != "" {
			return name + " " + flag + " changes files"
		}
		return ""
	}
	if !readers[name] {
		for _, a := range args {
			if scriptFile(a) {
				return name + " runs the script " + a
			}
		}
	}
	return ""
}

// readers only read the files named in their arguments, so a script file
// among them is data, not code.
var readers = map[string]bool{
	"cat": true, "head": true, "tail": true, "grep": true, "egrep": true, "fgrep": true,
	"rg": true, "ag": true, "wc": true, "ls": true, "stat": true, "file": true, "diff": true,
	"cmp": true, "md5sum": true, "sha1sum": true, "sha256sum": true, "sha512sum": true,
	"b2sum": true, "cksum": true, "less": true, "more": true, "bat": true, "nl": true,
	"od": true, "hexdump": true, "xxd": true, "strings": true, "cut": true, "uniq": true,
	"jq": true, "echo": true, "printf": true, "basename": true, "dirname": true,
	"realpath": true, "readlink": true, "du": true, "tree": true, "column": true,
	"fold": true, "fmt": true, "paste": true, "comm": true, "join": true, "tac": true,
	"rev": true, "shellcheck": true, "test": true, "[": true,
}

// scriptExts are the extensions of program text: an unknown program given
// such a file probably runs it.
var scriptExts = map[string]bool{
	".py": true, ".pyw": true, ".sh": true, ".bash": true, ".zsh": true, ".ksh": true,
	".fish": true, ".pl": true, ".pm": true, ".rb": true, ".js": true, ".mjs": true,
	".cjs": true, ".ts": true, ".mts": true, ".lua": true, ".tcl": true, ".awk": true,
	".sed": true, ".php": true, ".r": true, ".jl": true, ".ps1": true, ".bat": true,
	".cmd": true, ".exp": true, ".groovy": true, ".scala": true, ".swift": true,
	".el": true, ".vim": true, ".gdb": true, ".sql": true,
}

// scriptFile reports whether an argument names a program-text file
// (tool.py, --script=run.sh).
func scriptFile(a string) bool {
	if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
		a = v
	}
	return scriptExts[strings.ToLower(filepath.Ext(a))]
}

// destructiveFlags recognises the state-changing uses of binaries that are
// otherwise read-only (find -delete, sed -i, ...); each returns the flag.
var destructiveFlags = map[string]func(args []string) string{
	"find": func(args []string) string {
		for _, a := range args {
			switch a {
			case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
				return a
			}
		}
		return ""
	},
	"sed":  inPlace("ef", "--in-place"),
	"perl": inPlace("eEIlmMx", "--in-place"),
	"awk":  awkInPlace,
	"gawk": awkInPlace,
	"sort": optionWithValue("o", "--output"),
	"tar": func(args []string) string {
		for i, a := range args {
			if a == "--extract" || a == "--get" || a == "--delete" || a == "--create" || a == "--append" || a == "--update" {
				return a
			}
			if i == 0 && !strings.HasPrefix(a, "-") && strings.ContainsAny(a, "xcruA") {
				return a // tar xf archive (old-style options)
			}
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "xcruA") {
				return a
			}
		}
		return ""
	},
	"curl": func(args []string) string {
		for i, a := range args {
			switch {
			case a == "-o" || a == "-O" || a == "--output" || a == "--remote-name" || a == "-T" || a == "--upload-file" ||
				strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--upload-file="):
				return a
			case (a == "-X" || a == "--request") && i+1 < len(args) && strings.ToUpper(args[i+1]) != "GET" && strings.ToUpper(args[i+1]) != "HEAD":
				return a + " " + args[i+1]
			case len(a) > 2 && a[0] == '-' && a[1] != '-' && (strings.ContainsAny(a[1:], "oOT") || strings.HasPrefix(a, "-X") && a[2:] != "GET" && a[2:] != "HEAD"):
				return a
			}
		}
		return ""
	},
	"wget": func(args []string) string {
		for i, a := range args {
			if (a == "-O" || a == "--output-document") && i+1 < len(args) && args[i+1] == "-" || a == "-O-" || a == "--output-document=-" {
				return ""
			}
		}
		return "(downloads to a file)"
	},
	"git": func(args []string) string {
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			switch a {
			case "push", "commit", "reset", "clean", "checkout", "switch", "restore", "rm", "mv", "merge",
				"rebase", "pull", "fetch", "clone", "init", "add", "stash", "tag", "branch", "apply", "am",
				"cherry-pick", "revert", "gc", "prune", "config", "remote", "submodule", "worktree", "update-ref":
				return a
			}
			return ""
		}
		return ""
	},
	"rsync": func([]string) string { return "(copies files)" },
	"patch": func([]string) string { return "(rewrites files)" },
	"split": func([]string) string { return "(writes files)" },
	"scp":   func([]string) string { return "(copies files)" },
	"unzip": func(args []string) string {
		if hasShortFlag(args, "lpvtZ") {
			return ""
		}
		return "(extracts files)"
	},
}

// inPlace returns a check for an in-place edit flag: -i (or --in-place),
// alone or clustered with other short options before any letter of
// valueOpts (whose value would follow).
func inPlace(valueOpts, long string) func([]string) string {
	return func(args []string) string {
		for _, a := range args {
			if a == "--" {
				return ""
			}
			if strings.HasPrefix(a, long) {
				return a
			}
			if len(a) < 2 || a[0] != '-' || a[1] == '-' {
				continue
			}
			for j := 1; j < len(a); j++ {
				if a[j] == 'i' {
					return a
				}
				if strings.IndexByte(valueOpts, a[j]) >= 0 {
					break
				}
			}
		}
		return ""
	}
}

func awkInPlace(args []string) string {
	for i, a := range args {
		if (a == "-i" || a == "--include") && i+1 < len(args) && strings.TrimSuffix(args[i+1], ".awk") == "inplace" {
			return a + " " + args[i+1]
		}
		if a == "-iinplace" || a == "--include=inplace" {
			return a
		}
	}
	return ""
}

// optionWithValue returns a check for an option that writes a file.
func optionWithValue(short, long string) func([]string) string {
	return func(args []string) string {
		for _, a := range args {
			if a == long || strings.HasPrefix(a, long+"=") || (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a[1:], short)) {
				return a
			}
		}
		return ""
	}
}
