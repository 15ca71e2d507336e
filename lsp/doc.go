// Package lsp is the skillscript language server behind `skillc lsp`.
//
// The server speaks the Language Server Protocol over any byte stream (stdio
// in the CLI, net.Pipe in tests) using the go.lsp.dev v1 trio. It adds no
// language logic of its own: every answer is derived from the front end
// (syntax.Parse, check.Check), the linter when it is available, the
// language catalog (internal/leaf/lang: ops, kwargs, headers, keywords), the
// filter documentation of eval/filter, and the workspace configuration
// (internal/leaf/config, internal/leaf/connectors).
//
// Connection model. The connection is built by hand rather than with
// protocol.NewServer: notifications (didOpen, didChange, ...) are handled
// inline on the read loop so that they are applied strictly in wire order,
// and only requests are released with jsonrpc2.Async to run concurrently.
// Document versions that are not newer than the one held are ignored.
// A panic in a request handler becomes an InternalError reply for that
// request; a panic in a notification handler is logged and dropped. A frame
// whose body is not a JSON-RPC message is answered with a ParseError and the
// connection keeps serving. Nothing but protocol frames is written to the
// output stream; logs go to Options.Log (stderr in the CLI).
//
// Positions. The front end works in byte offsets; the conversion to the
// UTF-16 code units of LSP positions happens only at this edge (see
// position.go). Lines are split at '\n'; a '\r' before it belongs to the
// line terminator.
//
// Diagnostics. Every diagnostic carries its rule id as `code` and a
// `codeDescription` link of the form RuleDocURL + "#" + id, by default
// lint.DocsURL + "#<id>" (the anchors of docs/rules.md).
// Diagnostics are published on open and save at once and on change after a
// short debounce (Options.Debounce, counted from the quick answer below),
// each tagged with the document version they were computed for; a result
// for a version that is no longer current is dropped. A document of
// quickMinBytes or more first gets the parser's findings of the new text
// (re-parsing only the edited target when one edit falls inside one,
// reparse.go) plus the last full analysis's rule findings moved past the
// edit, then after the debounce either a local lane step (lane.go: an
// edit inside one target is answered by checking that target alone and
// running the local rules over it, the whole-file analysis following when
// typing pauses for Options.FullDelay, at the latest 1 s after the last
// one) or, when no lane step applies, the full analysis; an analysis whose text an edit replaced stops at its next checkpoint
// (before the parse, before each rule: lint.Options.Stop) instead of
// running to the end. Opening holds an analysis slot from the quick
// parse to the full analysis, so a burst of opens keeps at most
// GOMAXPROCS parses waiting. Closing a document
// publishes an empty list. textDocument/diagnostic and
// workspace/diagnostic answer the same in the pull model.
//
// Workspace. The skill index is kept per file (disk scan, overridden by
// open buffers); a change of what a skill declares re-checks only the
// open documents that mention it. Analyses are cached for the most
// recently used documents only. After initialized and after a change of
// connectors.json the MCP tool lists are warmed in the background
// (Options.WarmTools: skillc lsp injects workspace.WarmTools with the MCP
// client, which this package does not link) with $/progress.
package lsp
