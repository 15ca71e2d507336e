package lsp

import (
	"errors"
	"fmt"

	"github.com/skillscript/skillc/internal/approval"
)

// approvalHover describes the approval state of the skill for a hover on
// its # Status: line: the signer key's fingerprint and whether the
// signature verifies.
func (snap *snapshot) approvalHover() string {
	if snap.File == nil {
		return ""
	}
	sv := approval.StatusOf(snap.File)
	if sv == nil || sv.State != "Approved" {
		return ""
	}
	var key []byte
	if snap.env != nil && snap.env.Lint != nil {
		key = snap.env.Lint.ApprovalKey
	}
	if sv.Token == "" {
		return "**approval:** unsigned (a bare `Approved` runs only outside secured mode; sign it with `skillc approve`)"
	}
	if _, err := approval.ParseToken(sv.Token); err != nil {
		return fmt.Sprintf("**approval:** invalid token: %v", err)
	}
	if key == nil {
		return "**approval:** v3 Ed25519 signature, not verified here: no approval public key is configured (secured mode or `SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE`)"
	}
	fp := approval.Fingerprint(key)
	err := approval.Verify(key, snap.File.Src, sv.Token)
	var mismatch *approval.SignatureMismatchError
	switch {
	case err == nil:
		return fmt.Sprintf("**approval:** valid v3 signature by key `%s`", fp)
	case errors.As(err, &mismatch):
		return fmt.Sprintf("**approval:** signature no longer matches under key `%s`: edited after approval, or signed with another key", fp)
	}
	return fmt.Sprintf("**approval:** %v", err)
}
