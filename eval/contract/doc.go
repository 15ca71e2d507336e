// Package contract defines the Go interfaces through which the skillscript
// evaluator reaches the outside world: MCP-style tool connectors, local
// language models, the data store, the skill store and agent connectors.
//
// The package imports nothing else from skillc. Implementations live under
// eval/substrate; conformance suites that any implementation can run live in
// eval/contract/conformance. The evaluator receives a Registry value holding
// the wired instances.
//
// All methods take a context first; cancelling it must abort in-flight I/O.
package contract
