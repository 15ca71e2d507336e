// Package lang is the catalog of skillscript's static vocabulary: the
// runtime-intrinsic function-call ops, the typed-contract "$ op" names with
// their keyword arguments, the universal op kwargs, the statement keywords,
// the reserved words, the header and ambient-reference documentation.
//
// It is the one place this vocabulary is written down. The linter asks it
// which verbs exist and which kwargs an op takes, the evaluator asks it how
// an op is classified (external, mutating), and the language server renders
// its docs, signatures and snippets from it. Filters are catalogued
// separately, next to their implementation, in eval/filter.
//
// The catalog only describes; it decides nothing about a particular file.
// Every accessor returns fresh copies, so callers may keep or change what
// they get without affecting anyone else. The lookup predicates
// (IsIntrinsic, IsTypedContract, Reserved, ...) do not allocate.
//
// Where the implementations used to disagree, the catalog follows the
// language reference; docs/decisions.md lists those choices.
package lang
