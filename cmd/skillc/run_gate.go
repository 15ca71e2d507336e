package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/syntax"
	"github.com/urfave/cli/v2"
)

// admit is the approval gate of skillc run for the skill a person runs
// directly; it returns the posture the runner gates child skills with.
// In secured mode the first start provisions the key pair.
func admit(c *cli.Context, s *streams, env *workspace.Env, name string, src []byte) (*approval.Policy, error) {
	policy, generated := host.Policy(env.Config)
	if generated {
		keys := host.KeyPaths()
		fmt.Fprintf(s.err, "skillc: secured mode: created the approval key pair %s (0600) and %s; sign skills with skillc approve\n", keys.Private, keys.Public)
	}
	f, _ := syntax.Parse(name, src)
	subject := approval.Subject{Name: skillName(f, name), File: f, Info: check.Check(f), Reach: approval.Direct, Mechanical: c.Bool("mechanical")}
	if _, err := approval.Gate(policy, subject); err != nil {
		return nil, refuse(c, s, name, err)
	}
	return &policy, nil
}

// skillName is the # Skill: name, or the file name.
func skillName(f *ast.File, path string) string {
	if n := f.SkillName(); n != "" {
		return n
	}
	return path
}

// refuse reports a gate refusal: on stderr, and with --json as a result
// object on stdout.
func refuse(c *cli.Context, s *streams, name string, err error) error {
	if c.Bool("json") {
		kind := "ApprovalError"
		var r approval.Refusal
		if errors.As(err, &r) {
			kind = r.Kind()
		}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"status": "refused", "errors": []map[string]string{{"kind": kind, "message": err.Error()}}})
	}
	return cli.Exit(fmt.Sprintf("not running %s: %v", name, err), exitFindings)
}
