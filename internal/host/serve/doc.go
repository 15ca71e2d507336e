// Package serve is the runtime host behind `skillc serve`: a thin layer
// around eval.Runner that exposes skills over MCP (Streamable HTTP at /mcp
// and stdio), fires cron and event triggers, records every run in the
// trace store and reports health (/healthz, /readyz) and Prometheus
// metrics (/metrics).
//
// The host owns no evaluator and no store of its own: runs go through one
// eval.Runner built from the operator's configuration, skills are read and
// written through that runner's registry (the configured SkillStore), and
// traces through internal/host/trace.
package serve
