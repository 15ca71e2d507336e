// Package approval implements operator approval of skills: the canonical
// signing input, Ed25519 signatures in the "v3:" token format, the
// operator's key files, the content hash, and the gate every execution
// path consults before a skill runs. The gate weighs the skill's effect
// footprint, which the analysis side computes (package check/effects).
//
// The signing input is the source with "\r\n" and lone "\r" turned into
// "\n" and every # Status: or # Tags: header line of the header region
// (matched case-insensitively, with optional white space around '#' and
// before ':') removed; nothing else is normalized. The header region ends
// at the first line that is neither blank nor a '#' line; a line elsewhere
// that matches the pattern, or a '#' line led by white space other than
// spaces and tabs, makes the skill unsignable (CheckSignable), and Verify
// refuses it (DECISIONS 29). A signature is Ed25519 over those UTF-8
// bytes; its token is "v3:" followed by the signature in unpadded
// base64url, stamped as "# Status: Approved v3:<signature>".
//
// The package reads no environment and holds no state: callers pass the
// key paths, keys and mode they resolved.
package approval
