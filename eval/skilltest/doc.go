// Package skilltest runs the # Tests: blocks of skills.
//
// A # Tests: block is a YAML list of cases, each with a name, given:
// inputs and expect: assertions (syntax.TestAssertions lists the kinds).
// [Run] runs every selected case of a file in two phases:
//
//   - Compile phase (only when the case has compiled_output_contains,
//     compiled_output_does_not_contain or compile_error): the skill is
//     rendered in mechanical mode with the case's inputs. The "compiled
//     output" is that render's canonical output (the body template, or
//     the emissions, or the last bound value), followed by every emitted
//     line the canonical output does not already show. Compile errors are
//     the error-tier lint diagnostics of the file plus the errors of the
//     mechanical run (a missing required input also reads "missing
//     required variable: NAME"). compile_error matches them
//     case-insensitively.
//   - Runtime phase (only when the case has any other assertion): the
//     skill runs for real, but in a sandbox.
//
// A case fails, whatever it asserts, when given: names a variable the
// skill does not declare, when the skill has compile errors and the case
// has no compile_error assertion, when the run fails and the case has
// neither error_contains nor compile_error, and when it has no assertion
// at all.
//
// # Sandbox
//
// Every phase of every case gets a fresh scratch directory: the data
// store is a new SQLite file there and the skill store a copy of
// Options.SkillsDir (both opened only if the skill uses them), so nothing
// a test writes reaches production stores. Connectors and llm come from
// the mock file when there is one (parsed afresh for each case, so
// response sequences restart; the mock also answers the stores when it
// mocks their ops); without a mock only the connectors of the runner
// returned by newRunner exist. No agent connector is wired, so notify and
// agent outputs deliver nothing. Shell and filesystem access follow the
// runner's allowlists: default-deny unless the operator granted them.
//
// # Assertion semantics
//
//   - result_value: the canonical output, trimmed, equals the value,
//     trimmed.
//   - output_contains / output_does_not_contain: substring of the
//     canonical output (case-sensitive).
//   - emits: some emit() text contains the value.
//   - error_contains: some run error ("Kind: message", child errors
//     included) contains the value, case-insensitively.
//   - target_else_executed: the named target's else: handler ran.
//   - op_fallback_used: "target.N" — the (fallback:) of the Nth op of the
//     target fired. Ops are numbered from 1 in source order, counting
//     every statement except if/foreach/needs, at any depth, the else:
//     handler included. A bare "target" accepts any op of the target.
package skilltest
