package main

import (
	"fmt"

	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/workspace"
)

// runPolicy resolves the approval posture skillc run gates the skill and
// its children with (eval/host: Runner.Admit and Load). In secured mode
// the first start provisions the key pair, which is reported on stderr.
func runPolicy(s *streams, env *workspace.Env) *approval.Policy {
	policy, generated := host.Policy(env.Config)
	if generated {
		keys := host.KeyPaths()
		fmt.Fprintf(s.err, "skillc: secured mode: created the approval key pair %s (0600) and %s; sign skills with skillc approve\n", keys.Private, keys.Public)
	}
	return &policy
}
