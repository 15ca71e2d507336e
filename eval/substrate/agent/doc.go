// Package agent implements contract.AgentConnector three ways: NoOp (the
// default: accepts and drops deliveries with a warning on the receipt),
// Webhook (HTTP POST per agent with optional wake URL, bearer and
// HMAC-SHA256 authentication) and FileDrop (one JSON file per dispatch).
//
// All three follow the graceful-degradation rule: Wake on a substrate that
// cannot interrupt delivers the context instead and reports Woken false;
// only operational faults are errors.
package agent
