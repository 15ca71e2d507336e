package approval

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// TokenVersion is the prefix of the only accepted token format.
const TokenVersion = "v3"

var b64 = base64.RawURLEncoding

// Sign signs the canonical input of src and returns the token
// ("v3:<signature>"). It does not refuse an unsignable skill: callers
// that approve check CheckSignable first (Verify refuses such a skill
// anyway, so a token made for one never verifies).
func Sign(priv ed25519.PrivateKey, src []byte) string {
	sig := ed25519.Sign(priv, Canonical(src))
	return TokenVersion + ":" + b64.EncodeToString(sig)
}

// ParseToken decodes a "v3:<signature>" token. Other versions report
// *UnsupportedVersionError, anything else *MalformedTokenError.
func ParseToken(token string) ([]byte, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return nil, &MissingSignatureError{}
	}
	if strings.ContainsAny(token, " \t") {
		return nil, &MalformedTokenError{Token: token, Reason: "a token is one word (\"v3:\" and the signature)"}
	}
	version, sig, ok := strings.Cut(token, ":")
	if !ok {
		return nil, &MalformedTokenError{Token: token, Reason: "want v3:<signature>"}
	}
	if version != TokenVersion {
		if isVersion(version) {
			return nil, &UnsupportedVersionError{Version: version}
		}
		return nil, &MalformedTokenError{Token: token, Reason: "want v3:<signature>"}
	}
	raw, err := b64.DecodeString(sig)
	if err != nil {
		return nil, &MalformedTokenError{Token: token, Reason: "the signature is not unpadded base64url"}
	}
	if len(raw) != ed25519.SignatureSize {
		return nil, &MalformedTokenError{Token: token, Reason: "an Ed25519 signature is 64 bytes (86 base64url characters)"}
	}
	return raw, nil
}

// isVersion reports whether s looks like a token version ("v1", "v2", ...).
func isVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Verify checks token against src under pub: nil when the signature is
// valid, otherwise *UnsignableLineError (CheckSignable: the skill has a
// line no signature can cover), *MissingSignatureError,
// *MalformedTokenError, *UnsupportedVersionError or
// *SignatureMismatchError.
func Verify(pub ed25519.PublicKey, src []byte, token string) error {
	if err := CheckSignable(src); err != nil {
		return err
	}
	sig, err := ParseToken(token)
	if err != nil {
		return err
	}
	if !ed25519.Verify(pub, Canonical(src), sig) {
		return &SignatureMismatchError{Fingerprint: Fingerprint(pub)}
	}
	return nil
}

// StatusOf returns the value of the skill's first # Status: header, or
// nil when it has none (the skill is then a Draft).
func StatusOf(f *ast.File) *ast.StatusValue {
	for _, h := range f.HeadersOf(ast.HeaderStatus) {
		if h.Status != nil {
			return h.Status
		}
	}
	return nil
}

// CheckStamped confirms that a stamped skill reads back as intended: its
// # Status: header is Approved with token, and token verifies under pub.
func CheckStamped(f *ast.File, pub ed25519.PublicKey, token string) error {
	sv := StatusOf(f)
	if sv == nil || sv.State != "Approved" || sv.Token != token {
		return fmt.Errorf("the # Status: header does not read back as Approved with the new signature")
	}
	return Verify(pub, f.Src, token)
}
