package skillrt

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/skillscript/skillc/internal/host/registry"
)

// CallerEnv are the variables any caller of skills_run_script may set
// without a declaration by the package: they only change how output is
// presented.
var CallerEnv = []string{"NO_COLOR", "TZ"}

// deniedEnvPrefixes and deniedEnvNames are variables no caller may set
// even when a package declares them: they make the dynamic loader, an
// interpreter, git, a pager, a compiler, a package manager or a network
// client load code, run commands or change where it connects
// (GIT_CONFIG_COUNT with core.fsmonitor runs a command on git status;
// GCONV_PATH loads a shared object). They are the backstop behind the
// allowlist, matched case-insensitively.
var (
	deniedEnvPrefixes = []string{
		"LD_", "DYLD_", "MALLOC_", "GLIBC_", "BASH_", "PYTHON", "PERL", "RUBY", "GEM_", "BUNDLE_",
		"NODE_", "NPM_CONFIG_", "YARN_", "JAVA_", "_JAVA_", "JDK_", "LUA_", "TCL", "PHP", "GIT_",
		"LESS", "SSH_", "SUDO_", "GPG", "GNUPG", "PIP_", "UV_", "CARGO_", "RUST", "CGO_", "SSL_",
		"OPENSSL_", "CURL_", "XDG_", "KRB5", "JULIA_", "DENO_", "BUN_", "SKILLSCRIPT_", "PATH",
	}
	deniedEnvNames = map[string]bool{
		"HOME": true, "IFS": true, "ENV": true, "SHELLOPTS": true, "PS4": true, "PROMPT_COMMAND": true,
		"ZDOTDIR": true, "CLASSPATH": true, "GCONV_PATH": true, "LOCPATH": true, "NLSPATH": true,
		"HOSTALIASES": true, "LOCALDOMAIN": true, "RES_OPTIONS": true, "TMPDIR": true, "TERMINFO": true,
		"TERMCAP": true, "PAGER": true, "MANPAGER": true, "EDITOR": true, "VISUAL": true, "BROWSER": true,
		"AWKPATH": true, "AWKLIBPATH": true, "CC": true, "CXX": true, "CPP": true, "CFLAGS": true,
		"CXXFLAGS": true, "CPPFLAGS": true, "LDFLAGS": true, "MAKEFLAGS": true, "MFLAGS": true,
		"GOFLAGS": true, "GOPROXY": true, "GOPATH": true, "GOROOT": true, "GOTOOLCHAIN": true,
		"GOENV": true, "GODEBUG": true, "GOEXPERIMENT": true, "GOCACHE": true, "GOMODCACHE": true,
		"GOPRIVATE": true, "GONOPROXY": true, "GONOSUMDB": true, "GOINSECURE": true, "GOSUMDB": true,
		"GOWORK": true, "GOBIN": true, "SKILL_ROOT": true,
	}
)

// deniedEnv reports whether no caller may set k.
func deniedEnv(k string) bool {
	up := strings.ToUpper(k)
	if deniedEnvNames[up] || strings.HasSuffix(up, "_PROXY") {
		return true
	}
	for _, p := range deniedEnvPrefixes {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return false
}

// validEnvName reports whether k is a portable variable name.
func validEnvName(k string) bool {
	if k == "" || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c != '_' && (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// scriptEnv builds the environment of a package script: the host
// variables of the host allowlist (ScriptOptions.EnvAllow), then the
// caller's variables, each of which must be in CallerEnv or declared by
// the package (SKILL.md metadata env: "NAME ..."), and never a name of
// deniedEnvPrefixes. HOME and SKILL_ROOT are added by the caller.
func scriptEnv(so ScriptOptions, rec *registry.Record, extra map[string]string) ([]string, error) {
	var env []string
	for _, k := range so.envAllow() {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	declared := map[string]bool{}
	for _, k := range rec.Env {
		if !validEnvName(k) || deniedEnv(k) {
			return nil, fmt.Errorf("skill %s declares %q in its SKILL.md metadata env, a variable no caller may set (it changes how the loader, an interpreter or a tool the script starts behaves); remove it from metadata env", rec.Name, k)
		}
		declared[k] = true
	}
	for _, k := range CallerEnv {
		declared[k] = true
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case !validEnvName(k):
			return nil, fmt.Errorf("environment variable %q is not a valid name (letters, digits and _)", k)
		case deniedEnv(k):
			return nil, fmt.Errorf("environment variable %q may not be set by a skill call: it changes how the loader, an interpreter or a tool the script starts behaves", k)
		case !declared[k]:
			return nil, fmt.Errorf("environment variable %q is not declared by skill %s; a caller may set %s and the names the package lists in its SKILL.md metadata env (space-separated)", k, rec.Name, strings.Join(CallerEnv, ", "))
		case strings.ContainsRune(extra[k], 0):
			return nil, fmt.Errorf("environment variable %q holds a NUL byte", k)
		}
		env = append(env, k+"="+extra[k])
	}
	return env, nil
}
