package eval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
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
	for _, s := range append(lines(fx.files["want/nowhere"]), fx.secrets...) {
		if s != "" && strings.Contains(everything, s) {
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
