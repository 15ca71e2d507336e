package lang_test

import (
	"context"
	"encoding/json"
	"net"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/lsp"
	"github.com/skillscript/skillc/syntax"
)

// skill wraps body lines in a one-target skill.
func skill(body ...string) string {
	return "# Skill: probe\n# Autonomous: true\n\nmain:\n    " + strings.Join(body, "\n    ") + "\n\ndefault: main\n"
}

// lintMessages lints src and returns the messages of rule.
func lintMessages(t *testing.T, src, rule string) []string {
	t.Helper()
	_, _, ds := lint.Check("probe.skill.md", []byte(src), nil, lint.Options{Rules: rulesets.All()})
	var out []string
	for _, d := range ds {
		if d.Rule == rule {
			out = append(out, d.Message)
		}
	}
	return out
}

var opListInMessage = regexp.MustCompile(`the function-call ops are ([a-z_, ]+);`)

// TestLintSeesTheIntrinsics checks the linter's unknown-runtime-op rule
// accepts exactly the catalogued intrinsics and lists them for an unknown
// verb, and that its did-you-mean suggestions come from the same set.
func TestLintSeesTheIntrinsics(t *testing.T) {
	for _, op := range lang.Intrinsics() {
		if ms := lintMessages(t, skill(op+`(x="1")`), "unknown-runtime-op"); len(ms) > 0 {
			t.Errorf("lint rejects intrinsic %s: %v", op, ms)
		}
		typo := op[:len(op)-1] + "q" + op[len(op)-1:]
		ms := lintMessages(t, skill(typo+`(x="1")`), "unknown-runtime-op")
		if len(ms) != 1 || !strings.HasSuffix(ms[0], "did you mean "+op+"?") {
			t.Errorf("lint on %s: %v, want a did-you-mean %s", typo, ms, op)
		}
	}
	ms := lintMessages(t, skill(`zzzzzzzzzz(x="1")`), "unknown-runtime-op")
	if len(ms) != 1 {
		t.Fatalf("unknown verb: %v", ms)
	}
	m := opListInMessage.FindStringSubmatch(ms[0])
	if m == nil || !slices.Equal(strings.Split(m[1], ", "), lang.Intrinsics()) {
		t.Errorf("lint lists the ops as %q, the catalog has %v", ms[0], lang.Intrinsics())
	}
}

// TestLintSeesTheTypedContracts checks a bare "$ name" is taken for a
// language op exactly when the catalog says so: only other names can be
// a connector named as a tool.
func TestLintSeesTheTypedContracts(t *testing.T) {
	for _, name := range append(lang.BareDispatches(), "search_issues") {
		ms := lintMessages(t, skill("$ "+name+` tickets q="x" -> R`), "connector-as-tool")
		if got, want := len(ms) > 0, !lang.IsBareDispatch(name); got != want {
			t.Errorf("$ %s tickets: connector-as-tool reported %v, want %v", name, got, want)
		}
	}
}

// runErrors runs src with an empty registry and returns its error kinds
// and messages.
func runErrors(t *testing.T, src string) []eval.ErrorInfo {
	t.Helper()
	f, _ := syntax.Parse("probe.skill.md", []byte(src))
	r := &eval.Runner{Registry: &contract.Registry{}}
	res, err := r.Run(context.Background(), f, check.Check(f), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Errors
}

// TestEvalDispatchesTheCatalog checks the evaluator implements every
// catalogued intrinsic (and nothing else as a function call) and routes
// exactly the typed-contract ops to their contracts rather than to the
// "primary" connector.
func TestEvalDispatchesTheCatalog(t *testing.T) {
	unsupported := func(errs []eval.ErrorInfo) bool {
		return slices.ContainsFunc(errs, func(e eval.ErrorInfo) bool { return e.Kind == "UnsupportedOpError" })
	}
	for _, op := range lang.Intrinsics() {
		if errs := runErrors(t, skill(op+"()")); unsupported(errs) {
			t.Errorf("eval does not implement %s: %v", op, errs)
		}
	}
	if errs := runErrors(t, skill("zzzz()")); !unsupported(errs) {
		t.Errorf("eval runs an unknown verb: %v", errs)
	}
	toPrimary := func(errs []eval.ErrorInfo) bool {
		return slices.ContainsFunc(errs, func(e eval.ErrorInfo) bool { return strings.Contains(e.Message, `"primary" connector`) })
	}
	for _, o := range lang.Ops() {
		errs := runErrors(t, skill("$ "+o.Name+` k="v" -> R`))
		// typed contracts and the bare-dispatch intrinsic ($ execute_skill,
		// decision K4) run in the runtime; everything else goes to primary
		local := lang.IsTypedContract(o.Name) || lang.IsBareDispatch(o.Name)
		if toPrimary(errs) == local {
			t.Errorf("$ %s: routed to the primary connector = %v (%v)", o.Name, toPrimary(errs), errs)
		}
	}
}

// lspClient is a minimal JSON-RPC client of an in-process language server.
type lspClient struct {
	t    *testing.T
	conn jsonrpc2.Conn
}

// startLSP starts the language server over a pipe and initializes it.
func startLSP(t *testing.T) *lspClient {
	t.Helper()
	sc, cc := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- lsp.Serve(ctx, sc, lsp.Options{Debounce: -1, Home: t.TempDir(), Env: func(string) (string, bool) { return "", false }})
	}()
	c := &lspClient{t: t, conn: jsonrpc2.NewConn(jsonrpc2.NewStream(cc))}
	c.conn.Go(ctx, func(_ context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "no client methods")
		}
		return nil, nil
	})
	t.Cleanup(func() {
		cancel()
		_ = c.conn.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("language server did not stop")
		}
	})
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, nil)
	if err := c.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return c
}

// call sends a request and decodes its result into out.
func (c *lspClient) call(method string, params, out any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var raw json.RawMessage
	if _, err := c.conn.Call(ctx, method, params, &raw); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s result %s: %v", method, raw, err)
		}
	}
}

// completionLabels opens text and completes at line:col.
func (c *lspClient) completionLabels(uri, text string, line, col int) []string {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "skillscript", "version": 1, "text": text}}); err != nil {
		c.t.Fatal(err)
	}
	var list struct {
		Items []struct{ Label string } `json:"items"`
	}
	c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": line, "character": col}}, &list)
	var out []string
	for _, it := range list.Items {
		out = append(out, it.Label)
	}
	return out
}

// TestLSPCompletesTheCatalog checks the language server offers every
// catalogued op at the start of a body line, and the typed-contract ops
// (and no intrinsic) after "$ ".
func TestLSPCompletesTheCatalog(t *testing.T) {
	c := startLSP(t)
	ops := c.completionLabels("file:///tmp/ops.skill.md", skill("    "), 4, 4)
	for _, o := range lang.Ops() {
		label := o.Name
		if o.Class == lang.TypedContract {
			label = "$ " + o.Name
		}
		if !slices.Contains(ops, label) {
			t.Errorf("body-line completion lacks %q: %v", label, ops)
		}
	}
	for _, s := range lang.Statements() {
		if !slices.Contains(ops, s.Label) {
			t.Errorf("body-line completion lacks %q", s.Label)
		}
	}
	dollar := c.completionLabels("file:///tmp/dollar.skill.md", skill("$ "), 4, 6)
	for _, name := range lang.TypedContracts() {
		if !slices.Contains(dollar, name) {
			t.Errorf(`"$ " completion lacks %s: %v`, name, dollar)
		}
	}
	for _, name := range lang.Intrinsics() {
		if slices.Contains(dollar, name) {
			t.Errorf(`"$ " completion offers intrinsic %s`, name)
		}
	}
}

// TestAmbientNamesDocumented checks every ambient reference the checker
// knows has catalog documentation.
func TestAmbientNamesDocumented(t *testing.T) {
	for _, name := range append(check.Ambient(), "ERROR_CONTEXT") {
		if lang.AmbientDoc(name) == "" {
			t.Errorf("ambient %s is undocumented", name)
		}
	}
}
