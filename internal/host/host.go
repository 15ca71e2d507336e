// Package host assembles the runtime host of skillc once (issue 23): the
// trace store, the Agent Skills registry, runtime and gateway and the
// evaluator's runner, each built at most once and only when a command
// asks for it, from one resolved [Config]. The commands of cmd/skillc
// (run, replay, fires, health, shell-audit, skills …) take their parts
// from a [Host] instead of opening them their own way. The parts only
// the long-running host builds (the trigger service and the dashboard,
// whose libraries skillc must not link: decision BS1) are added by
// package internal/host/service.
package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/skillscript/skillc/eval"
	evalhost "github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/skillrt"
	"github.com/skillscript/skillc/internal/host/trace"
)

// EnvDatabaseURL is the environment variable naming the shared Postgres
// database (queue and traces) of the hosts given it.
const EnvDatabaseURL = "SKILLSCRIPT_DATABASE_URL"

// Config is the resolved configuration of a host (see [Resolve] for how
// each setting is chosen).
type Config struct {
	// TraceDir is the folder of the SQLite trace store traces.db and of
	// the spool of skillc run; empty when SKILLSCRIPT_HOME is unknown.
	TraceDir string
	// DatabaseURL is a postgres:// URL of a trace store and trigger queue
	// several hosts share; anything else (empty, a SQLite queue path)
	// keeps the trace store in TraceDir, and names the SQLite trigger
	// queue (empty: queue.db under the queue's Home).
	DatabaseURL string
	// HostName labels the runs this host records (see [trace.Store.SetHost])
	// and its trigger queue client.
	HostName string
	// Registry holds the roots and limits of the Agent Skills registry.
	Registry registry.Options
	// Skills are the options of the Agent Skills runtime.
	Skills skillrt.Options
	// Gateway is the gateway's configuration.
	Gateway gateway.Config
}

// Host is one assembly. Its parts are built on first use, once; it is
// safe for concurrent use.
type Host struct {
	cfg Config

	mu     sync.Mutex
	traces *trace.Store
	reg    *registry.Registry
	rt     *skillrt.Runtime
	gw     *gateway.Gateway

	runner      *eval.Runner
	closeRunner func() error // nil once closed or aborted
	closed      bool
}

// Open returns the host of cfg. It builds nothing yet: a command that
// needs no trace store never opens one.
func Open(cfg Config) *Host { return &Host{cfg: cfg} }

// ErrNoTraces reports a trace store that has nothing recorded (a command
// reading traces, asked before any run was recorded).
var ErrNoTraces = errors.New("no traces recorded yet")

// TracesConfigured reports whether the host has a trace store at all: a
// Postgres URL or a trace directory.
func (h *Host) TracesConfigured() bool {
	return trace.IsPostgres(h.cfg.DatabaseURL) || h.cfg.TraceDir != ""
}

// Traces returns the trace store, opening it on first use: the Postgres
// database of DatabaseURL, else traces.db in TraceDir (importing what
// skillc run spooled). With create unset a SQLite store that has never
// been written is not created: the error wraps [ErrNoTraces].
func (h *Host) Traces(ctx context.Context, create bool) (*trace.Store, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.traces != nil {
		return h.traces, nil
	}
	if !trace.IsPostgres(h.cfg.DatabaseURL) {
		if h.cfg.TraceDir == "" {
			return nil, errors.New("no trace directory: set SKILLSCRIPT_HOME")
		}
		if !create && !h.recorded() {
			return nil, fmt.Errorf("%w (%s)", ErrNoTraces, filepath.Join(h.cfg.TraceDir, trace.FileName))
		}
	}
	st, err := trace.OpenDatabase(ctx, h.cfg.DatabaseURL, h.cfg.TraceDir)
	if err != nil {
		return nil, err
	}
	if h.cfg.HostName != "" {
		st.SetHost(h.cfg.HostName)
	}
	h.traces = st
	return st, nil
}

// recorded reports whether the SQLite trace store or its spool exists.
func (h *Host) recorded() bool {
	for _, p := range []string{trace.FileName, trace.SpoolDir} {
		if _, err := os.Stat(filepath.Join(h.cfg.TraceDir, p)); err == nil {
			return true
		}
	}
	return false
}

// RunRecorder records the runs of a short-lived command (skillc run,
// replay): *trace.Store or *trace.Spool.
type RunRecorder = trace.Recording

// Recorder returns where a short-lived command records its runs: the
// spool of TraceDir (no database opened; the next reader imports it) on a
// SQLite store, the store itself on Postgres or where the platform cannot
// spool.
func (h *Host) Recorder(ctx context.Context) (RunRecorder, error) {
	if !trace.IsPostgres(h.cfg.DatabaseURL) && trace.SpoolSupported {
		return trace.OpenSpool(h.cfg.TraceDir)
	}
	return h.Traces(ctx, true)
}

// Registry returns the Agent Skills registry, built and indexed on
// first use.
func (h *Host) Registry() *registry.Registry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.registryLocked()
}

func (h *Host) registryLocked() *registry.Registry {
	if h.reg == nil {
		h.reg = registry.New(h.cfg.Registry)
		h.reg.Refresh()
	}
	return h.reg
}

// Skills returns the Agent Skills runtime over [Host.Registry], built on
// first use.
func (h *Host) Skills() *skillrt.Runtime {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rt == nil {
		h.rt = skillrt.New(h.registryLocked(), h.cfg.Skills)
	}
	return h.rt
}

// Gateway returns the gateway over [Host.Registry] with opts (its
// Registry and Config are the host's), built on first use; later calls
// return the same gateway whatever opts they pass.
func (h *Host) Gateway(opts gateway.Options) *gateway.Gateway {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gw == nil {
		opts.Registry, opts.Config = h.registryLocked(), h.cfg.Gateway
		h.gw = gateway.New(opts)
	}
	return h.gw
}

// Runner returns the evaluator's runner wired by eval/host from opts
// (connectors, skill store, approval gate, shell and file gates), built
// on first use; later calls return the same runner whatever opts they
// pass. [Host.Close] closes its connectors and stores.
func (h *Host) Runner(ctx context.Context, opts evalhost.Options) (*eval.Runner, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.runner != nil {
		return h.runner, nil
	}
	r, closeR, err := evalhost.NewRunner(ctx, opts)
	if err != nil {
		return nil, err
	}
	h.runner, h.closeRunner = r, closeR
	return r, nil
}

// AbortRunner ends the runner's connectors now, killing their process
// groups instead of giving each its grace period (a run cut off by a
// signal or its deadline must stop within it); [Host.Close] then leaves
// the runner alone. Without a runner it does nothing.
func (h *Host) AbortRunner() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.runner == nil || h.closeRunner == nil {
		return nil
	}
	h.closeRunner = nil
	return h.runner.Registry.Abort()
}

// Close closes what the host opened: the gateway, the runner's
// connectors and stores, and the trace store. Only the first call does
// anything.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	var errs []error
	if h.gw != nil {
		h.gw.Close()
	}
	if h.closeRunner != nil {
		errs = append(errs, h.closeRunner())
		h.closeRunner = nil
	}
	if h.traces != nil {
		errs = append(errs, h.traces.Close())
	}
	return errors.Join(errs...)
}
