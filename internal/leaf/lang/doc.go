// Package lang is the catalog of skillscript's static vocabulary: the
// runtime-intrinsic function-call ops, the typed-contract "$ op" names with
// their keyword arguments, the universal op kwargs, the statement keywords,
// the reserved words, the pipe filters (names, arguments, docs), the
// mutation classification of tool names and shell binaries, and the header
// and ambient-reference documentation.
//
// It is the one place this vocabulary is written down. The linter asks it
// which verbs exist and which kwargs an op takes, the evaluator asks it how
// an op is classified (external, mutating), and the language server renders
// its docs, signatures and snippets from it. eval/filter implements the
// catalogued filters; its tests check that every entry has an
// implementation and every implementation an entry.
//
// The catalog only describes; it decides nothing about a particular file.
// Every accessor returns fresh copies, so callers may keep or change what
// they get without affecting anyone else. The lookup predicates
// (IsIntrinsic, IsTypedContract, Reserved, ...) do not allocate.
//
// Where the implementations used to disagree, the catalog follows the
// language reference; docs/decisions.md lists those choices.
package lang
