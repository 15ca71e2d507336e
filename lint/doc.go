// Package lint is skillc's tiered lint engine. It turns the facts computed
// by package check (bindings, references, ops at any depth, the target
// graph) into diagnostics with exact ranges, messages that name the thing,
// "did you mean" suggestions and machine-applicable fixes.
//
// Each rule is a value ([Rule]): a stable id, a severity (error = tier 1,
// warning = tier 2, info = tier 3), the context it needs (source only,
// config, tool schemas, the skill store), a doc written once and reused by
// `skillc explain`, `skillc rules`, the language server and docs/rules.md,
// and a Run function that reports through a [Pass]. Rules come in sets
// that callers compose into a [Registry] ([NewRegistry]) and pass in
// [Options].Rules: this package holds the engine and the skillscript set
// ([Skillscript]); lint/signature, lint/classify and lint/skillmd hold the
// sets that need packages above the language, and lint/rulesets.All
// composes every set. There is no init-time registration and no package
// state. What several rules need from one file is computed once, on first
// use, in the per-run state the rules share: one ast.Scan of the tree
// (scan.go) and the checker's ops and references sorted by kind, call
// name and shape (index.go).
//
// [Check] parses, checks and lints a source in one call and merges the
// parser's diagnostics; [Run] lints an already parsed file. Both apply
// severity overrides, disabled rules and `# skillc:ignore rule-id` comments
// (see [Options]). A [Context] describes the deployment (wired connectors
// and their tool schemas, shell allowlist, unsafe-shell switch, local model
// aliases, agent connector, the skill store); its zero value means "no
// context", and rules that need an absent context stay silent, except
// missing-skillstore-for-data-ref which fires because no store is known.
package lint
