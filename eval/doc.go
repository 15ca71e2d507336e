// Package eval is the tree-walking evaluator of skillscript.
//
// A [Runner] runs one parsed and checked skill (an *ast.File with its
// *check.Info) and returns a [Result]. Every side effect goes through a
// value injected into the Runner: connectors, models and stores through a
// contract.Registry, processes through a shellexec.Runner, files through an
// fsgate.Gate, secrets through a lookup function, agent delivery through
// the registry's agent connectors, time through a clock, and the
// compilation of child skills (execute_skill, inline) through a loader
// ([Runner.Load]). The zero Runner is usable: it has no connectors,
// refuses every shell binary, every path and every child skill, knows no
// secrets and reads the wall clock. Package eval/host wires a Runner for
// a host process from the configuration; eval itself knows no parser,
// configuration file or substrate.
//
// All evaluator state lives in a per-run object (the run's context and
// deadline, the call depth, the scopes, what has been emitted and bound);
// the package has no mutable globals, so one Runner may run many skills
// concurrently.
//
// # Semantics settled here
//
// The language reference and DECISIONS.md leave some corners open; the
// evaluator settles them as follows (each has a test under
// testdata/eval/run):
//
//   - Inputs: caller inputs bind only names the skill declares (# Vars: or
//     a # Requires: binding); others are ignored with a notice. A declared
//     name with neither input, store value nor default is an error before
//     any target runs.
//   - A target's output (${t.output}) is the value of its last "-> VAR"
//     binding, or else its emissions joined with newlines.
//   - "$set" and "-> VAR" inside a foreach bind in the loop scope and do
//     not outlive the iteration; "$append" mutates the nearest enclosing
//     binding. Bindings made in a target's else: handler are skill-level.
//   - foreach iterates a list, a JSON-array string, or an envelope object's
//     "items" list; an empty or blank string and null iterate zero times;
//     any other string iterates once.
//   - A failing execute_skill child makes the op fail (so its fallback or
//     the target's else: can contain it); the child's own errors are kept
//     under the error's "nested" list, not copied to the top level.
//   - Policy refusals (shell and filesystem allowlists, the unsafe-shell
//     switch, the mutation gate, undeclared secrets, a Disabled skill) and
//     the run deadline are never contained by (fallback:) or else:.
//   - In mechanical mode nothing with an effect runs: "$" ops bind null,
//     shell, file and notify ops bind a placeholder that says what would
//     have run, and an unresolved reference renders as its source text.
package eval
