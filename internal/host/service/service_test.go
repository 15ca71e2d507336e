package service

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/dashboard"
	"github.com/skillscript/skillc/internal/host/trigger"
)

// The trigger service and the dashboard are built once, on first use,
// whatever later callers pass, and Close stops the service (once) and
// closes the assembly under it.
func TestServiceTriggersDashboardOnce(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	h := Open(ihost.Config{TraceDir: t.TempDir(), HostName: "h1"})

	svc, err := h.Triggers(ctx, trigger.Options{Queue: trigger.QueueOptions{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, "queue.db")); err != nil {
		t.Errorf("the SQLite queue of the host's Home: %v", err)
	}
	if s2, err := h.Triggers(ctx, trigger.Options{Queue: trigger.QueueOptions{Home: t.TempDir()}}); err != nil || s2 != svc {
		t.Fatalf("second Triggers = %p, %v; want the first (%p)", s2, err, svc)
	}
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	d := h.Dashboard(dashboard.Options{Prefix: "/a"})
	if d2 := h.Dashboard(dashboard.Options{Prefix: "/b"}); d2 != d {
		t.Fatal("second Dashboard built another handler")
	}
	// the embedded assembly's parts are there too
	if _, err := h.Traces(ctx, true); err != nil {
		t.Fatal(err)
	}

	if err := h.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// Close stopped the service: stopping it again (what serve's Shutdown
	// does first) is a no-op, and so is a second Close
	if err := svc.Stop(ctx); err != nil {
		t.Errorf("Stop after Close: %v", err)
	}
	if err := h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// internal/host, which skillc's run, traces and approval commands use,
// links neither the trigger queue (River) nor the dashboard: they are
// this package's (decision BS1).
func TestHostLeavesTheServiceOut(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/skillscript/skillc/internal/host").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"riverqueue", "internal/host/trigger", "internal/host/dashboard", "prometheus", "google.golang.org/grpc", "go.opentelemetry.io"} {
			if strings.Contains(dep, bad) {
				t.Errorf("internal/host links %s", dep)
			}
		}
	}
}
