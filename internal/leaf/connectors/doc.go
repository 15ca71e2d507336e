// Package connectors parses and validates connectors.json, the wiring file
// shared with the reference skillscript runtime.
//
// Parse is pure: it performs no I/O beyond reading the supplied bytes and
// looks environment variables up through a caller-supplied function. It
// returns the typed File (as complete as the input allows) together with
// every problem found as an ast.Diagnostic whose range covers the offending
// JSON value, so that lint and the language server can point at it.
//
// The file has three kinds of top-level keys:
//
//   - "substrate": the singleton slots data_store, skill_store, local_model
//     and agent_connector, each a short string, null, an object
//     {"type": ..., "config": {...}} or {"type": "custom", "module": ...}.
//   - "localModels": named local-model instances (aliases such as "qwen").
//   - any other key not starting with "_": a named MCP connector entry with
//     "class" (RemoteMcpConnector or HttpMcpConnector), "config",
//     "allowed_tools", "mutating" and static "tools" declarations.
//
// Keys starting with "_" are comments and ignored.
package connectors
