package eval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/secret"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/syntax"
)

// TestSecurityTestdata runs the attacks of issue 13 under
// testdata/security: each archive is a skill written as a hostile author
// would, run for real (real processes, files, stores), in the format of
// TestRunTestdata plus:
//
//	config         connector: NAME — a transforming connector (tools
//	               echo, upper, reverse, fail, which errors with its input
//	               in the message; every call is counted)
//	want/absent    paths under $WORK that must not exist afterwards
//	want/calls     "conn.tool N" lines: how often a tool was called
//	want/nowhere   strings that must appear nowhere: result, progress,
//	               deliveries, and every file under $WORK and the stores
//
// Every declared secret value is also searched for everywhere.
func TestSecurityTestdata(t *testing.T) {
	files, err := filepath.Glob("testdata/security/*.txtar")
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

// checkSecurity checks want/absent, want/calls and want/nowhere, and
// searches the files of the run for secret values.
func (fx *fixture) checkSecurity(t *testing.T, everything string) {
	t.Helper()
	for _, p := range lines(fx.files["want/absent"]) {
		if _, err := os.Stat(filepath.Join(fx.work, p)); err == nil {
			t.Errorf("%s exists: the attack performed its effect", p)
		}
	}
	for _, l := range lines(fx.files["want/calls"]) {
		tool, n, _ := strings.Cut(l, " ")
		if got := fmt.Sprint(fx.conns.count(tool)); got != n {
			t.Errorf("%s called %s times, want %s", tool, got, n)
		}
	}
	everything += fx.diskText(t)
	nowhere := lines(fx.files["want/nowhere"])
	for _, s := range fx.secrets {
		if len(s) >= secret.MinBytes { // shorter ones are refused, never resolved
			nowhere = append(nowhere, s)
		}
	}
	for _, s := range nowhere {
		if strings.Contains(everything, s) {
			t.Errorf("%q reached an output (result, progress, deliveries, files or stores)", s)
		}
	}
}

// diskText is the content of every file under $WORK and the state
// directory (the SQLite data store, the skill store).
func (fx *fixture) diskText(t *testing.T) string {
	var b strings.Builder
	for _, root := range []string{fx.work, fx.stateDir} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(filepath.Base(p), "skill.") {
				return nil
			}
			if rel, _ := filepath.Rel(fx.stateDir, p); strings.HasPrefix(rel, "skills") && fx.get("scan-skills") != "true" {
				return nil // the store holds the archive's own sources
			}
			data, _ := os.ReadFile(p)
			b.Write(data)
			return nil
		})
	}
	return b.String()
}

// transformers are the test connectors of config "connector: NAME".
type transformers struct {
	mu    sync.Mutex
	calls map[string]int
}

func (c *transformers) count(tool string) int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[tool]
}

// connector returns the connector called name.
func (c *transformers) connector(name string) contract.Connector {
	return transformer{name: name, all: c}
}

type transformer struct {
	name string
	all  *transformers
}

func (tr transformer) Call(_ context.Context, tool string, args map[string]any) (any, error) {
	tr.all.mu.Lock()
	tr.all.calls[tr.name+"."+tool]++
	tr.all.mu.Unlock()
	in := fmt.Sprint(args["text"])
	switch tool {
	case "echo":
		return in, nil
	case "upper":
		return strings.ToUpper(in), nil
	case "reverse":
		r := []rune(in)
		slices.Reverse(r)
		return string(r), nil
	case "fail":
		return nil, &contract.ToolError{Tool: tool, Message: "rejected " + in}
	case "write_note":
		return "stored", nil
	}
	return nil, fmt.Errorf("no tool %s", tool)
}

func (tr transformer) Tools(context.Context) ([]contract.Tool, error) {
	return []contract.Tool{{Name: "echo"}, {Name: "upper"}, {Name: "reverse"}, {Name: "fail"}, {Name: "write_note"}}, nil
}

func (transformer) HealthCheck(context.Context) error { return nil }

func (transformer) Close() error { return nil }

// taintSecret is the secret of FuzzTaintPropagation: it has characters
// that every encoding filter rewrites.
const taintSecret = "Sk-Fuzz/secret value=42&x"

// taintProgram builds a skill from prog: the first value is what a
// connector returns after receiving the secret (reversed), and each byte
// adds one step deriving a new value from an earlier one through a filter,
// $set, $append, interpolation, a condition, a loop, json_parse, another
// sink or a child skill, then emits it.
func taintProgram(prog []byte) (string, int) {
	var b strings.Builder
	steps := prog
	if len(steps) > 16 {
		steps = steps[:16]
	}
	n := 1
	body := []string{`    $ svc.reverse text="{{secret.K}}" -> V0`, `    emit(text="${V0}")`}
	for _, c := range steps {
		src := fmt.Sprintf("V%d", int(c>>4)%n)
		dst := fmt.Sprintf("V%d", n)
		var step []string
		switch c % 14 {
		case 0:
			step = []string{fmt.Sprintf(`$set %s = "${%s|trim}"`, dst, src)}
		case 1:
			step = []string{fmt.Sprintf(`$set %s = "${%s|url}"`, dst, src)}
		case 2:
			step = []string{fmt.Sprintf(`$set %s = "${%s|json|json}"`, dst, src)}
		case 3:
			step = []string{fmt.Sprintf(`$set %s = "${%s|shell}"`, dst, src)}
		case 4:
			step = []string{fmt.Sprintf(`$set %s = ${%s|length}`, dst, src)}
		case 5:
			step = []string{fmt.Sprintf(`$set %s = "${%s|head:\"1\"}"`, dst, src)}
		case 6:
			step = []string{fmt.Sprintf(`$set %s = "pre ${%s} post"`, dst, src)}
		case 7:
			step = []string{fmt.Sprintf(`$set %s = ""`, dst), fmt.Sprintf(`$append %s "${%s}"`, dst, src)}
		case 8:
			step = []string{fmt.Sprintf(`$set %s = []`, dst), fmt.Sprintf(`$append %s ${%s}`, dst, src)}
		case 9:
			step = []string{fmt.Sprintf(`if ${%s|length} > 20:`, src), fmt.Sprintf(`    $set %s = "long"`, dst), `else:`, fmt.Sprintf(`    $set %s = "short"`, dst)}
		case 10:
			step = []string{fmt.Sprintf(`$ json_parse "${%s|json}" -> %s`, src, dst)}
		case 11:
			step = []string{fmt.Sprintf(`$ svc.upper text="${%s}" -> %s`, src, dst)}
		case 12:
			step = []string{fmt.Sprintf(`$set %s = ""`, dst), fmt.Sprintf(`foreach W in ${%s|json}:`, src), fmt.Sprintf(`    $append %s "${W}"`, dst)}
		case 13:
			step = []string{fmt.Sprintf(`execute_skill(name="relay", inputs={"IN": "${%s}"}) -> K%d`, src, n), fmt.Sprintf(`$set %s = "${K%d.OUT}"`, dst, n)}
		}
		for _, l := range step {
			body = append(body, "    "+l)
		}
		body = append(body, fmt.Sprintf(`    emit(text="${%s}")`, dst))
		n++
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("V%d", i)
	}
	fmt.Fprintf(&b, "# Skill: fuzz\n# Status: Approved\n# Requires: secret.K\n# Returns: %s\n\nrun:\n%s\n\ndefault: run\n", strings.Join(names, ", "), strings.Join(body, "\n"))
	return b.String(), n
}

// FuzzTaintPropagation checks that a random chain of filters, $set,
// $append, interpolation, conditions, loops, sinks and child skills over a
// secret-derived value never reaches an output unredacted: every emission
// and every returned variable is the taint marker, and no spelling of the
// secret appears anywhere in the result.
func FuzzTaintPropagation(f *testing.F) {
	for i := 0; i < 14; i++ {
		f.Add([]byte{byte(i), byte(i + 16), byte(i + 32)})
	}
	f.Add([]byte{4, 9, 2, 12, 13, 11, 7, 8, 10, 0, 1, 3, 5, 6})
	f.Add([]byte("\x0d\x1d\x2d\x3d\x4d\x5d"))
	dir := f.TempDir()
	store, err := skillstore.NewFS(dir, nil)
	if err != nil {
		f.Fatal(err)
	}
	relay := "# Skill: relay\n# Status: Approved\n# Vars: IN=\"\"\n# Returns: OUT\n\nt:\n    $set OUT = \"relayed ${IN}\"\n\ndefault: t\n"
	if err := os.WriteFile(filepath.Join(dir, "relay.skill.md"), []byte(relay), 0o644); err != nil {
		f.Fatal(err)
	}
	conns := &transformers{calls: map[string]int{}}
	r := &eval.Runner{
		Registry: &contract.Registry{Skills: store, Connectors: map[string]contract.ConnectorEntry{"svc": {Connector: conns.connector("svc")}}},
		Secrets:  func(string) (string, bool) { return taintSecret, true },
		Load:     host.Load, MaxValueBytes: 1 << 16,
	}
	rev := []rune(taintSecret)
	slices.Reverse(rev)
	spellings := []string{taintSecret, string(rev), strings.ToUpper(taintSecret), strings.ToUpper(string(rev)), "Fuzz/secret", "zzuF-kS", "ZZUF-KS", "terces"}
	f.Fuzz(func(t *testing.T, prog []byte) {
		src, n := taintProgram(prog)
		file, diags := syntax.Parse("fuzz.skill.md", []byte(src))
		if diags.HasErrors() {
			t.Fatalf("generated skill does not parse: %v\n%s", diags, src)
		}
		res, err := r.Run(context.Background(), file, check.Check(file), nil)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(res)
		for _, s := range spellings {
			if strings.Contains(string(data), s) {
				t.Fatalf("%q reached the result:\n%s\n%s", s, src, data)
			}
		}
		for i, e := range res.Emissions {
			if e != eval.TaintMarker {
				t.Fatalf("emission %d = %q, want the taint marker\n%s", i, e, src)
			}
		}
		for k, v := range res.Vars() {
			if v != eval.TaintMarker {
				t.Fatalf("returned %s = %v, want the taint marker\n%s", k, v, src)
			}
		}
		if !res.Failed() && len(res.Vars()) != n {
			t.Fatalf("returned %d variables, want %d\n%s", len(res.Vars()), n, src)
		}
		for _, e := range res.Errors {
			if e.Message != eval.TaintMarker {
				t.Fatalf("error %s: %q, want the taint marker\n%s", e.Kind, e.Message, src)
			}
		}
	})
}
