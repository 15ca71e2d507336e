// Package secret resolves {{secret.NAME}} markers at sinks and redacts
// secret values from everything else.
//
// A marker is the literal text {{secret.NAME}} where NAME is an identifier
// ([A-Za-z_][A-Za-z0-9_]*). Any other text that starts with "{{secret." is
// a malformed marker and an error, never passed through: a marker built
// from a substitution ({{secret.${N}}}) cannot resolve.
//
// A [Resolver] replaces markers whose names the skill declared
// (# Requires: secret.NAME) with their values from its Lookup function,
// normally [EnvLookup] over SKILLSCRIPT_SECRET_<NAME>. The evaluator calls
// it only at a sink (a shell argv token after the allowlist passed, a
// connector argument at dispatch). Errors name the marker, never a value.
//
// A [Redactor] replaces every known secret value in arbitrary text with its
// marker form. It also catches the value's JSON-escaped and URL-encoded
// spellings, since error text from a tool often echoes a request. Use it on
// errors, stderr, transcripts and outputs.
package secret
