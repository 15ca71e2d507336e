// Package signature is the approval-signature rule set of the linter:
// malformed, stale and missing signatures on # Status: Approved, checked
// with internal/approval.
package signature

import (
	"errors"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/lint"
)

// Rules returns the approval-signature rule set.
func Rules() []*lint.Rule {
	return []*lint.Rule{
		ruleMalformedSignature(),
		ruleStaleSignature(),
		ruleUnsignedApproval(),
	}
}

// statusToken returns the # Status: Approved value carrying a token, or
// nil.
func statusToken(f *ast.File) *ast.StatusValue {
	sv := approval.StatusOf(f)
	if sv == nil || sv.State != "Approved" || sv.Token == "" {
		return nil
	}
	return sv
}

func ruleMalformedSignature() *lint.Rule {
	return &lint.Rule{
		ID: "malformed-signature", Severity: ast.Warning, Needs: lint.NeedsSource,
		Doc: lint.Doc{
			Summary: "A `# Status: Approved` token that is not a v3 Ed25519 signature (`v3:` and 86 base64url characters), or a retired v1/v2 token.",
			Why:     "Secured mode refuses the skill before any op runs; only `skillc approve` produces a valid token. Re-approve the skill.",
			Bad:     "# Status: Approved v2:0123abcd\n",
			Good:    "# Status: Approved v3:<86 characters written by skillc approve>\n",
		},
		Run: func(p *lint.Pass) {
			sv := statusToken(p.File)
			if sv == nil {
				return
			}
			if _, err := approval.ParseToken(sv.Token); err != nil {
				p.Reportf(sv.TokenRng, "%v", err)
			}
		},
	}
}

func ruleStaleSignature() *lint.Rule {
	return &lint.Rule{
		ID: "stale-signature", Severity: ast.Warning, Needs: lint.NeedsConfig,
		Doc: lint.Doc{
			Summary: "A signed skill whose signature does not verify under the operator's approval public key: its signed content changed after approval (or another key signed it).",
			Why:     "The signature covers everything but the `# Status:` and `# Tags:` lines; any other edit (a trailing space, `# Deadline:`) needs a new review. Secured mode refuses the skill. Review the change and run `skillc approve`. Checked only when the public key is known (secured mode, or `SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE`).",
			Bad:     "# Status: Approved v3:<signature of an earlier body>\n",
			Good:    "# Status: Approved v3:<signature written by skillc approve for this body>\n",
		},
		Run: func(p *lint.Pass) {
			sv := statusToken(p.File)
			if sv == nil || p.Ctx.ApprovalKey == nil {
				return
			}
			var mismatch *approval.SignatureMismatchError
			var unsignable *approval.UnsignableLineError
			if err := approval.Verify(p.Ctx.ApprovalKey, p.File.Src, sv.Token); errors.As(err, &mismatch) || errors.As(err, &unsignable) {
				p.Reportf(sv, "%v", err)
			}
		},
	}
}

func ruleUnsignedApproval() *lint.Rule {
	return &lint.Rule{
		ID: "unsigned-approval", Severity: ast.Warning, Needs: lint.NeedsConfig,
		Doc: lint.Doc{
			Summary: "`# Status: Approved` without a signature in a deployment that runs in secured mode.",
			Why:     "Secured mode runs an Approved skill only with the operator's signature; a bare `Approved` is refused. Sign it with `skillc approve`.",
			Bad:     "# Status: Approved\n",
			Good:    "# Status: Approved v3:<signature written by skillc approve>\n",
		},
		Run: func(p *lint.Pass) {
			sv := approval.StatusOf(p.File)
			if !p.Ctx.SecuredMode || sv == nil || sv.State != "Approved" || sv.Token != "" {
				return
			}
			p.Reportf(sv, "the skill is Approved but unsigned, and secured mode refuses unsigned skills: sign it with skillc approve")
		},
	}
}
