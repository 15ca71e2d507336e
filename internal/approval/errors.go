package approval

import "fmt"

// MissingSignatureError: an Approved skill carries no signature token.
type MissingSignatureError struct{}

// Error implements error.
func (*MissingSignatureError) Error() string {
	return "the skill is Approved but unsigned: run skillc approve to sign it"
}

// MalformedTokenError: the text after "Approved" is not a signature token.
type MalformedTokenError struct {
	Token  string
	Reason string
}

// Error implements error.
func (e *MalformedTokenError) Error() string {
	return fmt.Sprintf("malformed approval token %q: %s", shorten(e.Token), e.Reason)
}

// UnsupportedVersionError: a token of a signature version other than v3
// (v1 and v2 were HMAC schemes; only v3 is accepted).
type UnsupportedVersionError struct {
	Version string
}

// Error implements error.
func (e *UnsupportedVersionError) Error() string {
	return fmt.Sprintf("unsupported approval token version %s: only v3 (Ed25519) signatures are accepted; re-approve the skill with skillc approve", e.Version)
}

// SignatureMismatchError: a well-formed v3 signature that does not verify
// under the configured public key. The token does not name its signer,
// so an edit after approval and a signature made with another key look
// the same; Fingerprint names the key that was tried.
type SignatureMismatchError struct {
	Fingerprint string
}

// Error implements error.
func (e *SignatureMismatchError) Error() string {
	return fmt.Sprintf("signature no longer matches: edited after approval, or signed with a key other than %s; review the skill and re-approve it", e.Fingerprint)
}

// NoPublicKeyError: secured mode without a usable public key.
type NoPublicKeyError struct {
	Path string
	Err  error
}

// Error implements error.
func (e *NoPublicKeyError) Error() string {
	return fmt.Sprintf("secured mode needs the approval public key %s: %v", e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *NoPublicKeyError) Unwrap() error { return e.Err }

// KeyPermissionError: a key file readable or writable by group or others.
type KeyPermissionError struct {
	Path string
	Mode uint32
	Want string
}

// Error implements error.
func (e *KeyPermissionError) Error() string {
	return fmt.Sprintf("key file %s has mode %04o: %s (chmod it)", e.Path, e.Mode, e.Want)
}

// KeyFormatError: a key file that is not the expected PEM key.
type KeyFormatError struct {
	Path   string
	Reason string
}

// Error implements error.
func (e *KeyFormatError) Error() string {
	return fmt.Sprintf("key file %s: %s", e.Path, e.Reason)
}

// KeyTypeError: a well-formed key of another algorithm than Ed25519.
type KeyTypeError struct {
	Path string
	Type string
}

// Error implements error.
func (e *KeyTypeError) Error() string {
	return fmt.Sprintf("key file %s holds a %s key; approval keys are Ed25519 (run skillc keygen)", e.Path, e.Type)
}

func shorten(s string) string {
	const max = 40
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
