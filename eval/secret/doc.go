// Package secret carries {{secret.NAME}} references through a run and
// keeps their values out of everything the run reports.
//
// A [Box] belongs to one run. Rendering a reference places a sentinel
// ([Box.Sentinel]) that only this box can produce: it embeds a random
// nonce, so a variable value that merely contains the text
// "{{secret.X}}" stays inert. A sink (a shell argv token after the
// allowlist passed, a connector argument at dispatch) calls
// [Box.Resolve], which replaces sentinels with values; a name the skill
// did not declare (# Requires: secret.NAME) or one without a value is an
// error that names the secret, never a value. Everything else the run
// returns goes through [Box.Redact] or [Box.RedactValue]: sentinels turn
// back into the {{secret.NAME}} form and known values into their markers.
//
// A [Redactor] replaces every known secret value in arbitrary text with
// its marker form. It also catches the value's JSON-escaped and
// URL-encoded spellings, since error text from a tool often echoes a
// request.
package secret
