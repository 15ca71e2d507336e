// Package skillstore implements contract.SkillStore twice: on a directory
// of *.skill.md files (FS) and on an SQLite database with skills and
// versions tables (SQLite).
//
// Both stores persist bodies verbatim, derive the status, description and
// type from the body's column-0 "# Key: value" header lines (a deliberately
// tiny reader, independent of the language parser), compute content_hash =
// sha256(body) and version = its first 12 hex characters, keep a version
// history, delete destructively (the name is free afterwards) and offer a
// catalog Version token that changes on every add, removal, status change
// and body edit.
package skillstore
