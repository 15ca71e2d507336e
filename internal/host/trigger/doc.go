// Package trigger fires skills from cron schedules and named events. Fires
// are River jobs (github.com/riverqueue/river) in a database: the embedded
// SQLite file under $SKILLSCRIPT_HOME by default, or Postgres when a
// postgres:// URL is configured, so several hosts can share one queue.
//
// Cron: every poll tick the scheduler computes, for each enabled cron
// trigger, the latest due fire time (robfig/cron, timezone-aware) and
// inserts a job unique by (trigger, fire time). Two hosts ticking the same
// due fire insert one job; a host that was down fires the most recent
// missed slot once and skips older ones (coalescing missed-fire policy).
// The clock is injected, so tests tick without waiting.
//
// Events: POST /event inserts a job for the skill bound to the event name;
// the job carries the trace id returned to the poster.
//
// Workers run jobs through a Runner callback (the host's Execute). A run
// that failed for a retryable reason is retried by River; a policy refusal
// or a skill that is not Approved is cancelled, never retried.
package trigger
