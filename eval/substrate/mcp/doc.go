// Package mcp implements contract.Connector for MCP servers with the
// official Go SDK: Stdio spawns a server from PATH and speaks newline
// (or legacy LSP) framing over its stdio; HTTP speaks Streamable HTTP with
// one session per caller identity.
//
// tools/list results are cached on disk (eval/toolcache) so lint and the
// language server can work offline; a cached list is fresh for the cache
// TTL, refreshed after it, and served stale when the server is
// unreachable. tools/call results prefer structured content and JSON-decode
// text that is JSON; an isError result is a *contract.ToolError.
package mcp
