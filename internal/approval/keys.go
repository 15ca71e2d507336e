package approval

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Environment variables naming the key files.
const (
	EnvKeyFile       = "SKILLSCRIPT_APPROVAL_KEY_FILE"
	EnvPublicKeyFile = "SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE"
)

// KeyPaths are the operator's key files.
type KeyPaths struct {
	Private string // PKCS#8 PEM, mode 0600
	Public  string // SPKI PEM
}

// DefaultKeyPaths resolves the key files: the environment variables, else
// ~/.config/skillscript/approval.{key,pub} under home (deliberately
// outside SKILLSCRIPT_HOME). getenv may be nil.
func DefaultKeyPaths(getenv func(string) (string, bool), home string) KeyPaths {
	dir := filepath.Join(home, ".config", "skillscript")
	p := KeyPaths{Private: filepath.Join(dir, "approval.key"), Public: filepath.Join(dir, "approval.pub")}
	if getenv == nil {
		return p
	}
	if v, ok := getenv(EnvKeyFile); ok && strings.TrimSpace(v) != "" {
		p.Private = strings.TrimSpace(v)
	}
	if v, ok := getenv(EnvPublicKeyFile); ok && strings.TrimSpace(v) != "" {
		p.Public = strings.TrimSpace(v)
	}
	return p
}

// GenerateKeys writes a new Ed25519 key pair: the private key 0600 (its
// directory 0700 when created), the public key 0644. It refuses to
// replace an existing file unless overwrite is set.
func GenerateKeys(p KeyPaths, overwrite bool) (ed25519.PublicKey, error) {
	if !overwrite {
		for _, path := range []string{p.Private, p.Public} {
			if _, err := os.Lstat(path); err == nil {
				return nil, fmt.Errorf("key file %s exists: keep it, or pass --force to replace the key pair (every signed skill then needs re-approval)", path)
			}
		}
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate key: %w", err)
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	if err := writeKeyFile(p.Private, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER}), 0o600); err != nil {
		return nil, err
	}
	if err := writeKeyFile(p.Public, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), 0o644); err != nil {
		return nil, err
	}
	return pub, nil
}

// EnsureKeys generates the key pair when neither file exists (the first
// secured-mode start) and reports whether it did. It never reads the
// private key.
func EnsureKeys(p KeyPaths) (bool, error) {
	_, errPriv := os.Lstat(p.Private)
	_, errPub := os.Lstat(p.Public)
	if !errors.Is(errPriv, fs.ErrNotExist) || !errors.Is(errPub, fs.ErrNotExist) {
		return false, nil
	}
	_, err := GenerateKeys(p, false)
	return err == nil, err
}

// writeKeyFile creates path with mode through a temporary file and rename.
func writeKeyFile(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("key directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".key-*")
	if err != nil {
		return fmt.Errorf("write key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write key: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write key: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write key: %w", err)
	}
	return nil
}

// LoadPrivateKey reads a PKCS#8 PEM Ed25519 private key. The file must
// not be readable or writable by group or others.
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) {
	der, err := readKeyPEM(path, "PRIVATE KEY", 0o077, privateKeyWant)
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, &KeyFormatError{Path: path, Reason: "not a PKCS#8 private key: " + err.Error()}
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, &KeyTypeError{Path: path, Type: keyTypeName(k)}
	}
	return priv, nil
}

// LoadPublicKey reads an SPKI ("PUBLIC KEY") PEM Ed25519 public key. The
// file must not be writable by group or others.
func LoadPublicKey(path string) (ed25519.PublicKey, error) {
	der, err := readKeyPEM(path, "PUBLIC KEY", 0o022, "a public key must be writable by its owner only (0644 or stricter)")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, &KeyFormatError{Path: path, Reason: "not an SPKI public key: " + err.Error()}
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, &KeyTypeError{Path: path, Type: keyTypeName(k)}
	}
	return pub, nil
}

// readKeyPEM checks the file's mode against forbidden bits and returns the
// DER bytes of its single PEM block of the wanted type.
func readKeyPEM(path, blockType string, forbidden fs.FileMode, want string) ([]byte, error) {
	if err := statKeyFile(path, forbidden, want); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, &KeyFormatError{Path: path, Reason: "no PEM block (want -----BEGIN " + blockType + "-----)"}
	}
	if block.Type != blockType {
		return nil, &KeyFormatError{Path: path, Reason: fmt.Sprintf("PEM block %q, want %q", block.Type, blockType)}
	}
	if strings.TrimSpace(string(rest)) != "" {
		return nil, &KeyFormatError{Path: path, Reason: "text after the PEM block"}
	}
	return block.Bytes, nil
}

// statKeyFile checks that path is a regular file without the forbidden
// permission bits, without reading it.
func statKeyFile(path string, forbidden fs.FileMode, want string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("key file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return &KeyFormatError{Path: path, Reason: "not a regular file"}
	}
	if perm := fi.Mode().Perm(); perm&forbidden != 0 {
		return &KeyPermissionError{Path: path, Mode: uint32(perm), Want: want}
	}
	return nil
}

// CheckPrivateKeyFile reports whether the private key file exists with
// owner-only permissions, without reading it (for a boot-time check of a
// signing surface that must not hold the key).
func CheckPrivateKeyFile(path string) error {
	return statKeyFile(path, 0o077, privateKeyWant)
}

const privateKeyWant = "a private key must be readable by its owner only (0600)"

func keyTypeName(k any) string {
	t := fmt.Sprintf("%T", k)
	t = strings.TrimPrefix(t, "*")
	if i := strings.IndexByte(t, '.'); i >= 0 {
		t = t[:i]
	}
	return t
}

// Fingerprint names a public key: "SHA256:" and the unpadded standard
// base64 of the SHA-256 of its SPKI encoding (the OpenSSH style).
func Fingerprint(pub ed25519.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "SHA256:?"
	}
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// PublicKeyOf returns the public half of priv.
func PublicKeyOf(priv ed25519.PrivateKey) ed25519.PublicKey {
	return priv.Public().(ed25519.PublicKey)
}
