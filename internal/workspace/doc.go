// Package workspace assembles what checking a skill needs besides its
// source: the configuration discovered for a directory
// (skillscript.config.json, .env files, the environment), the parsed
// connectors.json, the tool lists cached by earlier MCP discovery, and the
// linter's view of all of it (lint.Context and lint.Options). It also turns
// the problems of those inputs into diagnostics.
//
// `skillc check`, the pre-run check of `skillc run`, `skillc test` and the
// language server all load their environment through Load, so they see the
// same facts, the same lint options and the same configuration problems.
// The linter itself (package lint) never reads configuration.
package workspace
