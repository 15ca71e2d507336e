// Package datastore implements contract.DataStore on an embedded SQLite
// database (modernc.org/sqlite, pure Go) with an FTS5 full-text index.
//
// Records are append-only. The summary of a record is the first line of its
// content (at most 200 characters) and the detail is the full content.
// Query never fails for "no match" and Get returns nil for a missing or
// expired record. Filter keys outside the manifest's supported set are an
// *contract.UnsupportedFilterError unless the query is permissive.
package datastore
