// Package syntax turns skillscript source into an [ast.File] with
// diagnostics, and prints an [ast.File] back in the canonical layout.
//
// # Parsing
//
// [Parse] never fails and never panics: it always returns a tree (possibly
// partial) and every problem it found, each with a rule id and an exact
// byte range. It works in three layers.
//
//  1. A line pre-scan (scan.go) walks the physical lines of the skill
//     region (the whole file, or the first ```skillscript / ```skill fence
//     of a Markdown document; line numbers stay those of the file). It
//     classifies each column-0 line as a header, comment, target header,
//     default:, target-level else: or template text, and measures
//     indentation (tabs are an indentation error). The top level (parse.go)
//     handles headers, targets, default: and templates; block.go builds
//     the indented bodies with an indent stack. The logical-statement
//     scanner (scan.go) joins the continuation lines of a statement while a
//     bracket is open (and the next line is deeper or starts with a closer)
//     or a """ string is open, and stmt.go dispatches each logical
//     statement to its parser.
//  2. Each logical statement is tokenized by a hand-written total lexer
//     (lex.go: every byte ends up in some token, unknown bytes in Invalid)
//     and parsed by one of three participle grammars (grammar.go): a
//     statement line (one or more $set, $append, $ dispatch and call
//     statements), a condition, or a single value. The grammar structs are
//     converted to ast nodes with absolute byte ranges (convert.go). A
//     statement that fails becomes an ast.BadStmt with one diagnostic,
//     worded by errors.go in terms of the shape the statement should have;
//     the rest of the file is unaffected. Headers have their own small parsers
//     (header.go), and the # Tests: block is decoded as YAML (tests.go).
//  3. Substitutions ${ROOT.path|filter:"arg"}, legacy $(ROOT) shapes and
//     {{secret.NAME}} markers are parsed by a third small parser (text.go)
//     wherever text appears: inside strings, bare words, the body template
//     and # Output: targets, so each part has its own range.
//
// Participle is the grammar of record. Because participle spends most of
// its time trying and discarding alternatives, and its grammar structs then
// have to be converted (convert.go), fast.go first tries a single-pass
// builder over the same tokens: for a clean statement, condition or value
// it builds the package ast nodes the conversion would, directly. It never
// reports anything and gives up on anything unusual or anything the
// conversion would diagnose; participle then parses it and the conversion
// reports. A construct the builder does not know simply falls back, so
// grammar changes need no change here; TestFastPath and FuzzFastPath check
// that whenever the builder succeeds, participle and the conversion
// produce the identical tree and no diagnostic (docs/benchmarks.md has
// the speed-ups: about 5x for the first matcher, about 2x more for the
// direct builder).
//
// Two tests guard the pair. TestGrammarGolden keeps the grammars as
// participle prints them in testdata/syntax/golden/grammar.txtar, so any
// grammar change shows up in review as a diff of that file, the cue to
// check fast.go (go test ./syntax -update rewrites it). TestFastPathShare
// parses all the .skill.md files under testdata and fails when the share
// of statements, conditions and values taken by the fast path drops
// below its bar: a grammar change the builder does not follow stays
// correct (participle parses it) but would silently lose the speed-up.
//
// Scans for a closing delimiter are bounded (a substitution or marker is at
// most 1024 bytes, bracket and condition nesting at most 200), so the parser
// stays linear on hostile input such as a 100 KB line of unclosed "${".
//
// The parser reports only syntax. Legacy ops (? ?? & > ~ @ !), key:value
// kwargs and $(X) substitutions are kept in the tree without a diagnostic;
// the linter owns those rules.
//
// # Formatting
//
// [Format] prints a tree in the canonical layout and [FormatSource] does
// the same for source text, refusing sources with syntax errors. The layout:
//
//   - headers are "# Key: value" with the canonical key spelling; list
//     values are joined with ", " (# Vars: A=1, B="x", C=[a, b]; no spaces
//     around a default's "="); status words and output kinds use their
//     canonical case; requirement and trigger values get one space after
//     "key:" and around "->". A value that cannot be normalized without
//     changing more than spacing and case is kept as written.
//   - every block level is indented four spaces; continuation lines of a
//     multi-line call are indented one level per open bracket, and a line
//     starting with a closing bracket lines up with its opener's line.
//   - $set NAME = value has one space around "="; kwargs are written k=v;
//     "->" has one space on each side; a trailer is written
//     " (fallback: value)"; commas are followed by one space; brackets have
//     no inner padding; a call's "(" follows its name directly.
//   - two statements sharing a line are separated by two spaces, as is a
//     trailing comment from its statement.
//   - one blank line separates targets from each other and from whatever
//     surrounds them (default: included); other runs of blank lines shrink
//     to one; a comment directly above a target stays attached to it.
//   - comments, string literals (including """ blocks), the body template,
//     # Tests: YAML and the prose outside a Markdown fence are copied byte
//     for byte, as are statements that did not parse.
//
// Spacing is only changed where the statement lexer reads the result as
// the same tokens, so formatting never changes the tree: parse, format and
// parse again gives the same ast (apart from positions and block indents),
// and formatting is idempotent. Both properties are fuzzed.
package syntax
