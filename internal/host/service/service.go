// Package service adds to the host assembly (package internal/host) the
// parts only the long-running host builds: the trigger service (River,
// its queue) and the approvals dashboard. It is imported by the commands
// of skillc-host (serve, dashboard) only, so that skillc, which runs,
// checks and reads traces through internal/host, does not link the
// trigger queue's libraries (decision BS1).
package service

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/dashboard"
	"github.com/skillscript/skillc/internal/host/trigger"
)

// Host is the assembly of a long-running host: an [ihost.Host] plus the
// trigger service and the dashboard, each built at most once. It is safe
// for concurrent use.
type Host struct {
	*ihost.Host
	cfg ihost.Config

	mu     sync.Mutex
	trig   *trigger.Service
	dash   *dashboard.Dashboard
	closed bool
}

// Open returns the host of cfg. It builds nothing yet.
func Open(cfg ihost.Config) *Host { return &Host{Host: ihost.Open(cfg), cfg: cfg} }

// Triggers returns the trigger service, opened on first use over the
// host's queue: o.Queue.URL and o.Queue.Host are the host's DatabaseURL
// and HostName, whatever o says. The service is not started: the caller
// wires the runs it fires first, then calls Start. Later calls return the
// same service whatever o they pass; [Host.Close] stops it.
func (h *Host) Triggers(ctx context.Context, o trigger.Options) (*trigger.Service, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.trig != nil {
		return h.trig, nil
	}
	o.Queue.URL, o.Queue.Host = h.cfg.DatabaseURL, h.cfg.HostName
	svc, err := trigger.Open(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("triggers: %w", err)
	}
	h.trig = svc
	return svc, nil
}

// Dashboard returns the approvals dashboard handler built from o on first
// use; later calls return the same handler whatever o they pass.
func (h *Host) Dashboard(o dashboard.Options) *dashboard.Dashboard {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.dash == nil {
		h.dash = dashboard.New(o)
	}
	return h.dash
}

// stopGrace bounds how long Close waits for a trigger service that was
// not stopped yet (the host's Shutdown normally stopped it within its
// grace period already).
const stopGrace = 5 * time.Second

// Close stops the trigger service, then closes the rest of the assembly
// ([ihost.Host.Close]: the gateway, the runner, the trace store). Only
// the first call does anything.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	var errs []error
	if h.trig != nil {
		ctx, cancel := context.WithTimeout(context.Background(), stopGrace)
		errs = append(errs, h.trig.Stop(ctx))
		cancel()
	}
	errs = append(errs, h.Host.Close())
	return errors.Join(errs...)
}
