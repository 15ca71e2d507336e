// Package dashboard is the operator's approvals surface over HTTP: the
// queue of skills that need a signature, each with its status, signature
// state, security signals and effectful footprint, and the
// `skillc approve` command to run at a terminal.
//
// With a passcode configured (SKILLSCRIPT_APPROVAL_PASSCODE) the queue can
// also sign in the browser: POST /unlock with the passcode opens a
// server-side session bound to a cookie (15 minutes idle), and only then
// does POST /approve read the private key, sign the reviewed content and
// store it. The dashboard holds no standing signing power: it never reads
// the key at start-up or outside an unlocked session. Without a passcode
// it is review-only.
package dashboard
