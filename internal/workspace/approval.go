package workspace

import (
	"crypto/ed25519"
	"os"

	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/lint"
)

// addApproval fills the approval facts of the signature rules: secured
// mode, and the operator's public key when the deployment names it.
func addApproval(ctx *lint.Context, cfg *config.Config) {
	ctx.SecuredMode = cfg.SecuredMode
	ctx.ApprovalKey = approvalKey(cfg)
}

// approvalKey loads the operator's approval public key when the
// deployment names it: SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE, or the
// default file in secured mode. Lint only warns with it; enforcement
// resolves the key itself (eval/host).
func approvalKey(cfg *config.Config) ed25519.PublicKey {
	path, set := cfg.Getenv(approval.EnvPublicKeyFile)
	if !set && cfg.SecuredMode {
		home, _ := os.UserHomeDir()
		path, set = approval.DefaultKeyPaths(nil, home).Public, home != ""
	}
	if !set {
		return nil
	}
	pub, err := approval.LoadPublicKey(path)
	if err != nil {
		return nil
	}
	return pub
}

// Mutating classifies "$ connector.tool" from connectors.json for an
// approval footprint: a connector or tool declared "mutating" (or whose
// discovered tool says so) is mutating; anything else is left to the
// shared name heuristic.
func (e *Env) Mutating() effects.Mutating {
	var conns map[string]*lint.Connector // nil reads as empty
	if e.Lint != nil {
		conns = e.Lint.Connectors
	}
	return func(conn, tool string) (string, bool) {
		if conn == "" {
			conn = "primary" // a bare "$ tool" routes to the primary connector
		}
		c := conns[conn]
		if c == nil {
			return "", false
		}
		return lang.ToolMutation(tool, c.ToolFacts(tool)), true
	}
}
