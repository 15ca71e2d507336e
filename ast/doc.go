// Package ast defines the typed syntax tree of a skillscript (.skill.md)
// file: headers, targets, statements, values, substitutions and conditions.
//
// Every node records the byte range it covers (see [Range]); important parts
// of a node (names, keys, values, operators, the "->" arrow, the fallback
// trailer) carry their own ranges so diagnostics can underline exactly the
// right text. A child's range always lies inside its parent's.
//
// Positions are byte offsets (plus one; the zero [Pos] is [NoPos]). A
// [LineTable] turns them into line:column in characters; the language
// server converts to UTF-16 at its edge.
//
// [Walk], [Inspect] and [All] visit every node; [Scan] walks a tree once
// and calls back only for the node kinds ([Kind], [Mask]) it is asked
// about, for consumers that share one traversal.
//
// The package also holds the one [Diagnostic] type every phase reports.
// It imports nothing else of skillc.
package ast
