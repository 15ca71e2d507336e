package gateway

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/leaf/config"
)

// live is a gateway over a copy of the judged skills plus test skills,
// with a real runner (host.NewRunner), a trace store on disk and an
// artifact root.
type live struct {
	g         *Gateway
	traces    *trace.Store
	artifacts string
	outside   string
}

func newLive(t *testing.T) *live {
	t.Helper()
	dir := t.TempDir()
	copyDir(t, skillsDir, dir)
	extra := map[string]string{
		// a direct skill the agent runs first: its run is the target
		"nightly-report.skill.md": "# Skill: nightly-report\n# Description: Writes the nightly report of failed jobs.\n# Classification: role=procedure invocation=direct effect_mode=read_only\n# Vars: DAY=\"monday\"\n# Timeout: 30\n\nreport:\n    emit(text=\"3 jobs failed on ${DAY}: build, lint, deploy\")\n\ndefault: report\n",
		// attachable but without a TARGET input
		"blind-watcher.skill.md": "# Skill: blind-watcher\n# Description: Watches runs without reading them.\n# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=run\n# Timeout: 30\n\nwatch:\n    emit(text=\"watching\")\n\ndefault: watch\n",
		// a Draft skill with an effect: the composed-reach approval gate refuses it
		"draft-writer.skill.md": "# Skill: draft-writer\n# Description: Writes a file.\n# Status: Draft\n# Autonomous: true\n# Classification: role=utility invocation=direct effect_mode=enrich\n# Timeout: 30\n\nmain:\n    file_write(path=\"/tmp/never-written-by-gateway-test\", content=\"x\")\n\ndefault: main\n",
		// garbage classification: indexed, never run
		"broken-class.skill.md": "# Skill: broken-class\n# Description: Has a garbage classification.\n# Classification: role=sidecr invocation=sometimes effect_mode=read_only\n# Timeout: 30\n\nmain:\n    emit(text=\"must not run\")\n\ndefault: main\n",
	}
	// a package with a garbage classification
	extra["broken-pkg/SKILL.md"] = "---\nname: broken-pkg\ndescription: Has a garbage classification.\nmetadata:\n  classification.role: utility\n  classification.invocation: sometimes\n  classification.effect_mode: read_only\n---\nBody.\n"
	os.MkdirAll(filepath.Join(dir, "broken-pkg"), 0o755)
	for name, src := range extra {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { return home, k == "SKILLSCRIPT_HOME" }})
	r, closeReg, err := host.NewRunner(context.Background(), host.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeReg() })
	ts, err := trace.Open(filepath.Join(t.TempDir(), trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	base := t.TempDir()
	arts := filepath.Join(base, "artifacts")
	os.MkdirAll(filepath.Join(arts, "exports"), 0o755)
	os.WriteFile(filepath.Join(arts, "exports", "users.csv"), []byte("id,name\n1,ada\n2,\n"), 0o644)
	os.WriteFile(filepath.Join(base, "secret.txt"), []byte("outside"), 0o644)
	os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(arts, "escape.txt"))
	g := New(Options{Registry: newRegistry(t, dir), Traces: ts, ArtifactRoot: arts,
		Executor: &TracedExecutor{Runner: r, Traces: ts}, Clock: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
	t.Cleanup(func() { g.Close() })
	return &live{g: g, traces: ts, artifacts: arts, outside: base}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRunRecordsThenAttach runs a skill through the host runner (the
// trace store records it with trigger gateway), then attaches sidecars
// to that recorded run, its output and its transcript: the target
// content reaches the sidecar as its TARGET input, and the attach run is
// recorded too.
func TestRunRecordsThenAttach(t *testing.T) {
	l := newLive(t)
	ctx := context.Background()
	run, err := l.g.Run(ctx, RunRequest{SkillID: "nightly-report", Inputs: map[string]any{"DAY": "friday"}})
	if err != nil {
		t.Fatal(err)
	}
	ex := run.Execution
	if ex.Status != "ok" || ex.TraceID == "" || !strings.Contains(ex.Output, "3 jobs failed on friday") {
		t.Fatalf("run: %+v", ex)
	}
	rec, _, err := l.traces.Get(ctx, ex.TraceID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Trigger != TriggerGateway || rec.TriggerName != "run" || rec.Skill != "nightly-report" || rec.Status != "ok" {
		t.Fatalf("recorded run: %+v", rec)
	}
	cases := []struct {
		skill, typ, want string
	}{
		{"run-auditor", "run", `"skill":"nightly-report"`},
		{"run-auditor", "transcript", "emit"},
		{"output-redactor", "output", "3 jobs failed on friday"},
		{"policy-violation-scanner", "output", "3 jobs failed on friday"},
	}
	for _, c := range cases {
		res, err := l.g.Attach(ctx, AttachRequest{SkillID: c.skill, TargetType: c.typ, TargetRef: ex.TraceID})
		if err != nil {
			t.Fatalf("attach %s to %s: %v", c.skill, c.typ, err)
		}
		if res.SkillID != "project/"+c.skill || res.TargetType != c.typ || res.TargetRef != ex.TraceID || res.AttachedAt != "2026-01-02T03:04:05Z" {
			t.Errorf("attach result: %+v", res)
		}
		if res.Execution.Status != "ok" || !strings.Contains(res.Execution.Output, c.want) || !strings.Contains(res.Execution.Output, c.typ+" "+ex.TraceID) {
			t.Errorf("attach %s to %s: output %q, want it to contain %q", c.skill, c.typ, res.Execution.Output, c.want)
		}
		att, _, err := l.traces.Get(ctx, res.Execution.TraceID)
		if err != nil {
			t.Fatal(err)
		}
		if att.Trigger != TriggerGateway || att.TriggerName != "attach "+c.typ+" "+ex.TraceID || att.Inputs["TARGET_REF"] != ex.TraceID {
			t.Errorf("attach trace: %+v", att)
		}
	}
	// a package attached to the run: the receipt plus the target as input
	res, err := l.g.Attach(ctx, AttachRequest{SkillID: "transcript-summarizer", TargetType: "transcript", TargetRef: ex.TraceID})
	if err != nil {
		t.Fatal(err)
	}
	if res.Execution.Kind != "agentskill" || res.Execution.Receipt == nil || !strings.Contains(res.Execution.Inputs[InputTarget].(string), "nightly-report/report") {
		t.Errorf("package attach: %+v", res.Execution)
	}
}

// TestAttachArtifact resolves artifacts under the root with os.Root.
func TestAttachArtifact(t *testing.T) {
	l := newLive(t)
	res, err := l.g.Attach(context.Background(), AttachRequest{SkillID: "csv-profiler", TargetType: "artifact", TargetRef: "exports/users.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Execution.Output, "id,name") {
		t.Errorf("artifact content did not reach the skill: %q", res.Execution.Output)
	}
}

// TestBadRequestsRunNothing sends every kind of bad request and checks the
// structured reason; the trace store must stay empty.
func TestBadRequestsRunNothing(t *testing.T) {
	l := newLive(t)
	ctx := context.Background()
	seed, err := l.g.Run(ctx, RunRequest{SkillID: "nightly-report"})
	if err != nil {
		t.Fatal(err)
	}
	id := seed.Execution.TraceID
	attach := []struct {
		name string
		req  AttachRequest
		code string
		msg  string
	}{
		{"unknown skill", AttachRequest{SkillID: "run-audtor", TargetType: "run", TargetRef: id}, ReasonUnknownSkill, `did you mean "run-auditor"`},
		{"empty skill", AttachRequest{TargetType: "run", TargetRef: id}, ReasonInvalidRequest, "skill_id is empty"},
		{"direct skill", AttachRequest{SkillID: "nightly-report", TargetType: "run", TargetRef: id}, ReasonNotAttachable, "invocation=direct"},
		{"unclassified", AttachRequest{SkillID: "notes-cleaner", TargetType: "run", TargetRef: id}, ReasonNotAttachable, "no classification"},
		{"unknown target type", AttachRequest{SkillID: "run-auditor", TargetType: "runs", TargetRef: id}, ReasonUnknownTargetType, `did you mean "run"`},
		{"undeclared target type", AttachRequest{SkillID: "run-auditor", TargetType: "artifact", TargetRef: "x"}, ReasonTargetTypeNotAllowed, "attaches to run, transcript, not artifact"},
		{"missing ref", AttachRequest{SkillID: "run-auditor", TargetType: "run"}, ReasonInvalidRequest, "target_ref is empty"},
		{"unknown trace", AttachRequest{SkillID: "run-auditor", TargetType: "run", TargetRef: "0123456789abcdef"}, ReasonTargetNotFound, "no recorded run"},
		{"path as trace", AttachRequest{SkillID: "run-auditor", TargetType: "run", TargetRef: "../../etc/passwd"}, ReasonInvalidRequest, "not a trace id"},
		{"dotdot artifact", AttachRequest{SkillID: "csv-profiler", TargetType: "artifact", TargetRef: "../secret.txt"}, ReasonTargetOutsideRoot, "not a path inside"},
		{"absolute artifact", AttachRequest{SkillID: "csv-profiler", TargetType: "artifact", TargetRef: filepath.Join(l.outside, "secret.txt")}, ReasonTargetOutsideRoot, "not a path inside"},
		{"symlink escape", AttachRequest{SkillID: "csv-profiler", TargetType: "artifact", TargetRef: "escape.txt"}, ReasonTargetOutsideRoot, "cannot be opened inside"},
		{"missing artifact", AttachRequest{SkillID: "csv-profiler", TargetType: "artifact", TargetRef: "exports/none.csv"}, ReasonTargetNotFound, "no artifact"},
		{"directory artifact", AttachRequest{SkillID: "csv-profiler", TargetType: "artifact", TargetRef: "exports"}, ReasonTargetNotFound, "not a regular file"},
		{"task store absent", AttachRequest{SkillID: "sla-breach-monitor", TargetType: "task", TargetRef: "T-1"}, ReasonTargetUnavailable, "no task store"},
		{"no TARGET var", AttachRequest{SkillID: "blind-watcher", TargetType: "run", TargetRef: id}, ReasonTargetInput, "does not declare TARGET"},
		{"reserved input", AttachRequest{SkillID: "run-auditor", TargetType: "run", TargetRef: id, Inputs: map[string]any{"TARGET": "forged"}}, ReasonInvalidRequest, "set by the gateway"},
		{"garbage classification", AttachRequest{SkillID: "broken-class", TargetType: "run", TargetRef: id}, ReasonInvalidClassification, `unknown classification role "sidecr"`},
		{"output of no output", AttachRequest{SkillID: "output-redactor", TargetType: "output", TargetRef: "ffffffff"}, ReasonTargetNotFound, "no recorded run"},
	}
	for _, c := range attach {
		t.Run(c.name, func(t *testing.T) {
			_, err := l.g.Attach(ctx, c.req)
			var ave *AttachValidationError
			if !errors.As(err, &ave) {
				t.Fatalf("err = %v, want an AttachValidationError", err)
			}
			if ave.Reason.Code != c.code || !strings.Contains(ave.Reason.Message, c.msg) {
				t.Errorf("reason %+v, want code %s and %q", ave.Reason, c.code, c.msg)
			}
		})
	}
	g := l.g
	requests := []struct {
		name string
		call func() error
		code string
		msg  string
	}{
		{"empty intent", func() error { _, err := g.Discover(ctx, DiscoverRequest{Intent: "  "}); return err }, ReasonInvalidRequest, "intent is empty"},
		{"stop-word intent", func() error { _, err := g.Discover(ctx, DiscoverRequest{Intent: "the of and"}); return err }, ReasonInvalidRequest, "no searchable words"},
		{"huge intent", func() error {
			_, err := g.Discover(ctx, DiscoverRequest{Intent: strings.Repeat("x ", 5000)})
			return err
		}, ReasonInvalidRequest, "over the limit"},
		{"huge limit", func() error { _, err := g.Discover(ctx, DiscoverRequest{Intent: "logs", Limit: 1 << 30}); return err }, ReasonInvalidRequest, "out of range"},
		{"negative limit", func() error { _, err := g.List(ctx, ListRequest{Limit: -1}); return err }, ReasonInvalidRequest, "out of range"},
		{"bad role", func() error {
			_, err := g.Discover(ctx, DiscoverRequest{Intent: "logs", RoleFilter: "sidcar"})
			return err
		}, ReasonInvalidRequest, `did you mean "sidecar"`},
		{"bad list role", func() error { _, err := g.List(ctx, ListRequest{Role: "boss"}); return err }, ReasonInvalidRequest, "unknown role"},
		{"bad kind", func() error { _, err := g.List(ctx, ListRequest{Kind: "plugin"}); return err }, ReasonInvalidRequest, "unknown kind"},
		{"negative offset", func() error { _, err := g.List(ctx, ListRequest{Offset: -3}); return err }, ReasonInvalidRequest, "negative"},
		{"run attach-only", func() error { _, err := g.Run(ctx, RunRequest{SkillID: "run-auditor"}); return err }, ReasonNotCallable, "invocation=attach"},
		{"run unknown", func() error { _, err := g.Run(ctx, RunRequest{SkillID: "nightly-reprot"}); return err }, ReasonUnknownSkill, `did you mean "nightly-report"`},
		{"run garbage class", func() error { _, err := g.Run(ctx, RunRequest{SkillID: "broken-class"}); return err }, ReasonInvalidClassification, "invocation"},
		{"run garbage package class", func() error { _, err := g.Run(ctx, RunRequest{SkillID: "broken-pkg"}); return err }, ReasonInvalidClassification, `unknown classification invocation "sometimes"`},
		{"run undeclared input", func() error {
			_, err := g.Run(ctx, RunRequest{SkillID: "nightly-report", Inputs: map[string]any{"DYA": "x"}})
			return err
		}, ReasonInvalidRequest, `did you mean "DAY"`},
		{"run bad trace id", func() error {
			_, err := g.Run(ctx, RunRequest{SkillID: "nightly-report", Options: RunOptions{TraceID: "../x"}})
			return err
		}, ReasonInvalidRequest, "trace_id"},
	}
	for _, c := range requests {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			r, ok := ReasonOf(err)
			if !ok || r.Code != c.code || !strings.Contains(r.Message, c.msg) {
				t.Errorf("err %v (reason %+v), want code %s and %q", err, r, c.code, c.msg)
			}
		})
	}
	runs, err := l.traces.Fires(ctx, trace.Filter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].ID != id {
		t.Errorf("bad requests ran something: %d recorded runs", len(runs))
	}
}

// TestRunRefusedByApprovalGate: the runner's gate refuses a Draft skill
// with effects before any op; the gateway reports the failed, recorded
// run with the gate's error and the file is not written. (skillc serve's
// host gates before starting and the gateway answers run_refused.)
func TestRunRefusedByApprovalGate(t *testing.T) {
	l := newLive(t)
	res, err := l.g.Run(context.Background(), RunRequest{SkillID: "draft-writer"})
	if err != nil {
		t.Fatal(err)
	}
	ex := res.Execution
	if ex.Status != "failed" || len(ex.Errors) == 0 || ex.Errors[0].Kind != "DraftSkillError" || ex.TraceID == "" {
		t.Fatalf("execution %+v, want a failed run refused by the Draft gate", ex)
	}
	if _, err := os.Stat("/tmp/never-written-by-gateway-test"); err == nil {
		t.Errorf("the refused skill wrote its file")
	}
}

// TestRunPackageReturnsReceipt: a package has no executable semantics; run
// returns its load receipt and instructions.
func TestRunPackageReturnsReceipt(t *testing.T) {
	l := newLive(t)
	res, err := l.g.Run(context.Background(), RunRequest{SkillID: "pr-reviewer"})
	if err != nil {
		t.Fatal(err)
	}
	ex := res.Execution
	if ex.Kind != "agentskill" || ex.Receipt == nil || ex.Receipt.Name != "pr-reviewer" || !strings.Contains(ex.Instructions, "## What to look for") || ex.TraceID != "" {
		t.Errorf("package run: %+v", ex)
	}
}
