// Package check computes the static facts of a parsed skill that the
// linter, the evaluator and the language server share: every variable
// binding site and reference with its scope, the target graph (missing
// dependencies, cycles, reachability from the goal, the run order), and
// every op with its enclosing target and loops. It reports no diagnostics
// itself — policy lives in package lint — and is computed once per file.
package check
