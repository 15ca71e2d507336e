package lsp

import (
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	wsenv "github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/syntax"
)

// frontEnd is an analyzer built from the parser and the checker alone: it
// reports the parse diagnostics (for tests that replace the linter).
func frontEnd(name string, src []byte, _ *Env) Analysis {
	f, diags := syntax.Parse(name, src)
	return Analysis{File: f, Info: check.Check(f), Diags: diags}
}

// emptyEnv is the environment of a document without any configuration.
func emptyEnv() *Env {
	return &Env{Env: &wsenv.Env{Connectors: &connectors.File{}}, Skills: map[string]string{}}
}
