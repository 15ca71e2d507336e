// Package config discovers and resolves the configuration skillc shares with
// the skillscript runtime: skillscript.config.json, connectors.json, .env
// files and SKILLSCRIPT_* environment variables.
//
// # Discovery
//
// [Load] is pure: the environment lookup, the user's home directory and the
// start directory are inputs, and nothing is read from the process.
//
//  1. SKILLSCRIPT_HOME comes from the real environment only (a .env file
//     cannot set it, because it is needed to find the .env file); it
//     defaults to ~/.skillscript. A leading "~/" is expanded.
//  2. skillscript.config.json and connectors.json are found independently:
//     the explicit --config / --connectors flag; else the nearest file of
//     that name in the start directory (the checked file's directory) or
//     one of its parents; else the file in SKILLSCRIPT_HOME; else none. A
//     missing discovered file is not a problem; a missing flag target is.
//  3. .env files are loaded from the directory of the configuration file,
//     the directory of the connectors file and SKILLSCRIPT_HOME (each
//     directory once). They never change the real environment.
//
// # Operator-controlled and project-local files (DECISIONS 25)
//
// A file named by a flag or lying in SKILLSCRIPT_HOME is the operator's
// ([Config.ConfigTrusted], [Config.ConnectorsTrusted]). A file found upward
// from the skill is project-local: a skill allowed to write its own
// directory, or a cloned repository, could have put it there. A
// project-local skillscript.config.json contributes its lint options only;
// every other member (allowlists, unsafe shell, secured mode, paths,
// limits) is ignored with one warning naming them. A .env beside a
// project-local file is not read (warning). A project-local
// connectors.json is parsed for the linter but never started or wired by a
// run (eval/host).
//
// # Precedence
//
// For every setting the first source that provides a valid value wins:
//
//  1. the real environment (SKILLSCRIPT_SHELL_ALLOWLIST=curl,git, ...);
//  2. .env beside an operator-controlled skillscript.config.json, then
//     .env beside an operator-controlled connectors.json, then .env in
//     SKILLSCRIPT_HOME;
//  3. an operator-controlled skillscript.config.json;
//  4. the built-in default (allowlists empty: default-deny; switches off;
//     paths under SKILLSCRIPT_HOME).
//
// Command-line flags that override settings are applied by the caller on
// top of the returned Config. [Config.Origins] records which source won for
// each setting. An invalid value (a boolean that is not true/false, a
// negative number) is reported and ignored, so the next source applies.
//
// # skillscript.config.json
//
// String values may reference ${VAR}, resolved with the precedence above
// (plus the resolved SKILLSCRIPT_HOME); an unset variable is an error.
// Relative paths are relative to the file's directory. Members starting
// with "_" are comments. The recognised members are skillsDir,
// skillsDbPath, traceDir, dataDbPath, triggersFilePath, shellAllowlist,
// fsAllowlist (arrays of strings or comma-separated strings),
// runtime.{enable_unsafe_shell, secured_mode, force_always_draft,
// max_deadline_seconds, max_recursion_depth, absolute_timeout_ms} (the
// camelCase spellings enableUnsafeShell, securedMode, ... at the top level
// are also accepted; runtime.* wins), dashboard.{host, port} and lint:
//
//	{"lint": {"severity": {"rule-id": "error|warning|info|off"},
//	          "disable": ["rule-id"],
//	          "ignore": ["generated/**"]}}
//
// Unknown members are reported (a warning with a suggestion when close to a
// known name, otherwise an info). Malformed JSON, wrong types and unknown
// severities are reported with the byte offset, line and column.
//
// connectors.json is not interpreted here: Config carries its path and raw
// bytes, and [Config.Getenv] is the variable lookup to resolve its ${VAR}
// references with (connectors.Parse(cfg.Connectors, cfg.Getenv)).
//
// # Environment variables
//
// SKILLSCRIPT_SHELL_ALLOWLIST, SKILLSCRIPT_ENABLE_UNSAFE_SHELL,
// SKILLSCRIPT_FS_ALLOWLIST, SKILLSCRIPT_SECURED_MODE,
// SKILLSCRIPT_FORCE_ALWAYS_DRAFT, SKILLSCRIPT_MAX_DEADLINE_SECONDS,
// SKILLSCRIPT_MAX_RECURSION_DEPTH, SKILLSCRIPT_ABSOLUTE_TIMEOUT_MS,
// SKILLSCRIPT_MAX_VALUE_BYTES, SKILLSCRIPT_MAX_OPS,
// SKILLSCRIPT_MAX_MEMORY_BYTES,
// SKILLSCRIPT_HOST, SKILLSCRIPT_PORT, SKILLSCRIPT_SKILLS_DIR,
// SKILLSCRIPT_SKILLS_DB, SKILLSCRIPT_TRACE_DIR and DATA_DB override the
// corresponding settings. SKILLSCRIPT_SECRET_<NAME> provisions the secret
// {{secret.NAME}}; [Config.Secret] reads it and nothing in this package
// prints it.
//
// # .env format
//
// KEY=value lines, values optionally in double or single quotes, '#'
// comment lines and blank lines. Lines without '=', invalid names (including
// an "export " prefix) and unterminated quotes are warnings and are skipped.
// Multi-line values, interpolation and inline comments are not supported.
package config
