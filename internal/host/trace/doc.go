// Package trace records runs in a SQLite database under $SKILLSCRIPT_HOME
// (traces/traces.db by default), or in a Postgres database several hosts
// share ([OpenPostgres], [OpenDatabase]; the few SQL differences are in
// dialect.go): one row per run with the skill, its
// content hash, trigger, caller, redacted inputs, outcome, uncertain
// effects, deliveries and output, and one row per op with its timing,
// outcome, fallback and refusal. The runtime host and `skillc run` write
// it; `skillc fires`, `skillc health`, `skillc replay`, `skillc
// shell-audit` and the host's MCP tools read it.
//
// A run is inserted as "running" before it starts and updated when it
// ends, so a process that dies mid-run leaves a row that [Store.Recover]
// marks "aborted" at the next start (on Postgres, the next start of the
// same host, see [Store.SetHost]); a committed row is never lost.
package trace
