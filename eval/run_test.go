package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/fsgate"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/mock"
	"github.com/skillscript/skillc/eval/secret"
	"github.com/skillscript/skillc/eval/shellexec"
	"github.com/skillscript/skillc/eval/substrate/datastore"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/syntax"
)

// TestRunTestdata runs every archive under testdata/eval/run. An archive
// holds the skill (skill.skill.md) and optionally:
//
//	config        key: value lines — shell (allowlist), unsafe, fs (on),
//	              secret NAME=VALUE, mechanical, datastore (sqlite),
//	              agents (none|fail), clock (RFC 3339), maxdepth, identity,
//	              maxops, maxvalue, maxmem (the resource bounds)
//	inputs        NAME=VALUE lines
//	mock.yaml     an eval/mock file wired as the registry
//	store/*.skill.md   skills in a filesystem skill store
//	files/...     files placed under $WORK (the filesystem allowlist)
//	want/output   the exact canonical output
//	want/status   ok or failed
//	want/errors   "Kind: message substring" lines, in order
//	want/fallbacks  "op: reason substring" lines, in order
//	want/result.json  a JSON subset the result must match
//	want/agents   "kind agent: content" lines for recorded deliveries
//	want/files/...    files expected under $WORK afterwards
//
// $WORK in any file is replaced with the archive's scratch directory.
func TestRunTestdata(t *testing.T) {
	files, err := filepath.Glob("../testdata/eval/run/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runArchive(t, file)
		})
	}
}

// fixture is one archive prepared for running.
type fixture struct {
	work     string
	files    map[string]string
	config   map[string][]string
	runner   *eval.Runner
	agents   *recorder
	events   *eventLog
	secrets  []string
	stateDir string
	conns    *transformers
}

func loadFixture(t *testing.T, path string) *fixture {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{work: t.TempDir(), files: map[string]string{}, config: map[string][]string{}}
	fx.stateDir = t.TempDir()
	for _, f := range ar.Files {
		fx.files[f.Name] = strings.ReplaceAll(string(f.Data), "$WORK", fx.work)
	}
	for _, line := range lines(fx.files["config"]) {
		k, v, _ := strings.Cut(line, ":")
		fx.config[strings.TrimSpace(k)] = append(fx.config[strings.TrimSpace(k)], strings.TrimSpace(v))
	}
	fx.placeFiles(t)
	fx.runner = fx.buildRunner(t)
	return fx
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func (fx *fixture) placeFiles(t *testing.T) {
	for name, data := range fx.files {
		rel, ok := strings.CutPrefix(name, "files/")
		if !ok {
			continue
		}
		p := filepath.Join(fx.work, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func (fx *fixture) get(key string) string {
	if v := fx.config[key]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

func (fx *fixture) buildRunner(t *testing.T) *eval.Runner {
	r := &eval.Runner{Registry: fx.registry(t), MaxDepth: atoi(fx.get("maxdepth")), Identity: fx.get("identity"), Load: host.Load}
	r.Shell = &shellexec.Runner{Allowlist: strings.FieldsFunc(fx.get("shell"), func(r rune) bool { return r == ',' || r == ' ' }), EnableUnsafe: fx.get("unsafe") == "true"}
	if fx.get("fs") == "on" {
		g, err := fsgate.New(fx.work, []string{fx.work})
		if err != nil {
			t.Fatal(err)
		}
		r.FS = g
	}
	secrets := map[string]string{}
	for _, s := range fx.config["secret"] {
		k, v, _ := strings.Cut(s, "=")
		secrets[k] = v
		fx.secrets = append(fx.secrets, v)
	}
	r.Secrets = func(n string) (string, bool) { v, ok := secrets[n]; return v, ok }
	if c := fx.get("clock"); c != "" {
		at, err := time.Parse(time.RFC3339, c)
		if err != nil {
			t.Fatal(err)
		}
		r.Clock = func() time.Time { return at }
	}
	r.Mechanical = fx.get("mechanical") == "true"
	r.MaxOps, r.MaxValueBytes, r.MaxMemoryBytes = int64(atoi(fx.get("maxops"))), int64(atoi(fx.get("maxvalue"))), int64(atoi(fx.get("maxmem")))
	r.Env.User = fx.get("user")
	fx.events = &eventLog{}
	r.Progress = fx.events.add
	return r
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// registry wires the mock, a real SQLite data store, a real filesystem
// skill store and the recording agent connector, as the archive asks.
func (fx *fixture) registry(t *testing.T) *contract.Registry {
	reg := &contract.Registry{}
	if src, ok := fx.files["mock.yaml"]; ok {
		m, err := mock.Parse("mock.yaml", []byte(src))
		if err != nil {
			t.Fatalf("mock.yaml: %v", err)
		}
		reg = m.Registry()
		reg.Skills = nil
	}
	if fx.get("datastore") == "sqlite" {
		ds, err := datastore.Open(filepath.Join(fx.stateDir, "data.db"), datastore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ds.Close() })
		reg.Data = ds
	}
	reg.Skills = fx.skillStore(t)
	for _, name := range fx.config["connector"] {
		if fx.conns == nil {
			fx.conns = &transformers{calls: map[string]int{}}
		}
		if reg.Connectors == nil {
			reg.Connectors = map[string]contract.ConnectorEntry{}
		}
		reg.Connectors[name] = contract.ConnectorEntry{Connector: fx.conns.connector(name)}
	}
	fx.agents = &recorder{fail: fx.get("agents") == "fail"}
	if fx.get("agents") != "none" {
		reg.Agents = []contract.AgentConnector{fx.agents}
	}
	return reg
}

func (fx *fixture) skillStore(t *testing.T) contract.SkillStore {
	dir := filepath.Join(fx.stateDir, "skills")
	store, err := skillstore.NewFS(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range fx.files {
		if rel, ok := strings.CutPrefix(name, "store/"); ok {
			if err := os.WriteFile(filepath.Join(dir, rel), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return store
}

func (fx *fixture) inputs() map[string]any {
	in := map[string]any{}
	for _, l := range lines(fx.files["inputs"]) {
		k, v, _ := strings.Cut(l, "=")
		in[k] = v
	}
	return in
}

func runArchive(t *testing.T, path string) {
	fx := loadFixture(t, path)
	runFixture(t, fx, fx.files["skill.skill.md"])
}

func runFixture(t *testing.T, fx *fixture, src string) {
	if src == "" {
		t.Fatal("archive has no skill.skill.md")
	}
	f, diags := syntax.Parse("skill.skill.md", []byte(src))
	if diags.HasErrors() && fx.get("parse") != "errors-ok" {
		t.Fatalf("skill does not parse: %v", diags)
	}
	res, err := fx.runner.Run(context.Background(), f, check.Check(f), fx.inputs())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.MarshalIndent(res, "", "  ")
	if testing.Verbose() {
		t.Logf("result:\n%s", data)
	}
	fx.checkResult(t, res, data)
}

func (fx *fixture) checkResult(t *testing.T, res *eval.Result, data []byte) {
	t.Helper()
	if want, ok := fx.files["want/output"]; ok {
		if diff := cmp.Diff(strings.TrimSuffix(want, "\n"), res.Outputs.Text); diff != "" {
			t.Errorf("output (-want +got):\n%s", diff)
		}
	}
	if want, ok := fx.files["want/output-re"]; ok {
		re := regexp.MustCompile("^(?s:" + strings.TrimSuffix(want, "\n") + ")$")
		if !re.MatchString(res.Outputs.Text) {
			t.Errorf("output %q does not match %s", res.Outputs.Text, re)
		}
	}
	if want, ok := fx.files["want/status"]; ok && strings.TrimSpace(want) != res.Status {
		t.Errorf("status = %s, want %s; errors: %+v", res.Status, strings.TrimSpace(want), res.Errors)
	}
	if _, ok := fx.files["want/status"]; !ok && res.Failed() {
		t.Errorf("run failed unexpectedly: %+v", res.Errors)
	}
	checkLines(t, "errors", fx.files["want/errors"], errorLines(res))
	checkLines(t, "fallbacks", fx.files["want/fallbacks"], fallbackLines(res))
	checkLines(t, "agents", fx.files["want/agents"], fx.agents.lines())
	if want, ok := fx.files["want/result.json"]; ok {
		var w, g any
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatalf("want/result.json: %v", err)
		}
		json.Unmarshal(data, &g)
		if msg := subset(w, g, "result"); msg != "" {
			t.Errorf("%s\nresult:\n%s", msg, data)
		}
	}
	fx.checkFiles(t)
	fx.checkSecrets(t, res, data)
}

func errorLines(res *eval.Result) []string {
	var out []string
	for _, e := range res.Errors {
		out = append(out, e.Kind+": "+e.Message)
	}
	return out
}

func fallbackLines(res *eval.Result) []string {
	var out []string
	for _, f := range res.Fallbacks {
		out = append(out, f.Op+": "+f.Reason)
	}
	return out
}

// checkLines matches got against "want" lines: each want line must be a
// prefix-free substring of the corresponding got line.
func checkLines(t *testing.T, what, want string, got []string) {
	t.Helper()
	if want == "" {
		return
	}
	wl := lines(want)
	if len(wl) != len(got) {
		t.Errorf("%s: got %d, want %d:\n got: %q\nwant: %q", what, len(got), len(wl), got, wl)
		return
	}
	for i := range wl {
		if !strings.Contains(got[i], wl[i]) {
			t.Errorf("%s[%d] = %q, want it to contain %q", what, i, got[i], wl[i])
		}
	}
}

// subset reports where got does not contain want.
func subset(want, got any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %T, want object", path, got)
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s: missing", path, k)
			}
			if msg := subset(w[k], gv, path+"."+k); msg != "" {
				return msg
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %v, want %v", path, got, want)
		}
		for i := range w {
			if msg := subset(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); msg != "" {
				return msg
			}
		}
		return ""
	}
	if !cmp.Equal(want, got) {
		return fmt.Sprintf("%s: got %v, want %v", path, got, want)
	}
	return ""
}

func (fx *fixture) checkFiles(t *testing.T) {
	for name, want := range fx.files {
		rel, ok := strings.CutPrefix(name, "want/files/")
		if !ok {
			continue
		}
		got, err := os.ReadFile(filepath.Join(fx.work, rel))
		if err != nil {
			t.Errorf("want file %s: %v", rel, err)
			continue
		}
		if diff := cmp.Diff(strings.TrimSuffix(want, "\n"), string(got)); diff != "" {
			t.Errorf("file %s (-want +got):\n%s", rel, diff)
		}
	}
}

// checkSecrets searches everything the run produced for secret values.
func (fx *fixture) checkSecrets(t *testing.T, res *eval.Result, data []byte) {
	everything := string(data) + fx.events.String() + fx.agents.String()
	fx.checkSecurity(t, everything)
	for _, s := range fx.secrets {
		if len(s) >= secret.MinBytes && strings.Contains(everything, s) { // shorter ones are refused, never resolved
			t.Errorf("secret value %q leaked into the result, progress or deliveries", s)
		}
	}
}

// recorder is an agent connector that records what it is sent.
type recorder struct {
	mu   sync.Mutex
	fail bool
	got  []string
	meta []contract.DeliveryMeta
}

func (r *recorder) Name() string { return "recorder" }

func (r *recorder) ListAgents(context.Context) ([]contract.AgentDescriptor, error) { return nil, nil }

func (r *recorder) Deliver(_ context.Context, agent string, p contract.DeliveryPayload) (contract.DeliveryReceipt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail {
		return contract.DeliveryReceipt{}, fmt.Errorf("agent %s unreachable", agent)
	}
	if err := p.Validate(); err != nil {
		return contract.DeliveryReceipt{}, err
	}
	r.got = append(r.got, p.Kind+" "+agent+": "+p.Content)
	r.meta = append(r.meta, p.Meta)
	return contract.DeliveryReceipt{DeliveredAt: 1, DeliveryID: fmt.Sprintf("d%d", len(r.got))}, nil
}

func (r *recorder) Wake(_ context.Context, agent string, o contract.WakeOptions) (contract.WakeReceipt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, "wake "+agent+": "+o.Context)
	return contract.WakeReceipt{Woken: true, SessionID: contract.ResolveSession(agent, o)}, nil
}

func (r *recorder) HealthCheck(context.Context) error { return nil }

func (r *recorder) RequestResponse(context.Context, string, contract.DeliveryPayload, contract.RequestOptions) (contract.AgentResponse, error) {
	return contract.AgentResponse{}, &contract.NotImplementedError{Method: "RequestResponse"}
}

func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func (r *recorder) String() string { return strings.Join(r.lines(), "\n") }

// eventLog records progress events.
type eventLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *eventLog) add(e eval.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.buf, "%s %s %s %d %s\n", e.Kind, e.Target, e.Op, e.Line, e.Detail)
}

func (l *eventLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
