// Package render turns diagnostics into the output formats of the skillc
// command line: a human-readable listing with source excerpts (Human),
// a stable JSON document (JSON), SARIF 2.1.0 for code-scanning services
// (SARIF) and GitHub Actions workflow annotations (GitHub).
//
// Every renderer works from the same input, one [ast.FileDiagnostics] per checked
// file, and converts byte-offset ranges into 1-based lines and 1-based
// columns counted in characters (runes). End columns are exclusive: the
// column just after the last character of the range. A diagnostic without
// a position is reported against the file as a whole (line and column 0 in
// JSON, no line in the other formats, line 1 in SARIF, which requires one).
//
// The renderers never reorder diagnostics; callers sort them first
// (ast.Diagnostics.Sort) when they want position order. Nil diagnostics are
// skipped. Output is deterministic for a given input, and colour codes are
// written only when HumanOptions.Color asks for them.
package render
