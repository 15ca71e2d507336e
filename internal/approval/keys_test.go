package approval

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tempKeys(t *testing.T) KeyPaths {
	dir := filepath.Join(t.TempDir(), "cfg", "skillscript")
	return KeyPaths{Private: filepath.Join(dir, "approval.key"), Public: filepath.Join(dir, "approval.pub")}
}

func TestGenerateAndLoadKeys(t *testing.T) {
	p := tempKeys(t)
	pub, err := GenerateKeys(p, false)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{p.Private: 0o600, p.Public: 0o644, filepath.Dir(p.Private): 0o700} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
	priv, err := LoadPrivateKey(p.Private)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadPublicKey(p.Public)
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.Equal(pub) || !PublicKeyOf(priv).Equal(pub) {
		t.Fatal("loaded keys do not match the generated pair")
	}
	if err := Verify(loaded, []byte(body), Sign(priv, []byte(body))); err != nil {
		t.Fatal(err)
	}
	if _, err := GenerateKeys(p, false); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("regenerating over existing keys: %v", err)
	}
	if _, err := GenerateKeys(p, true); err != nil {
		t.Errorf("--force regenerate: %v", err)
	}
}

func TestEnsureKeys(t *testing.T) {
	p := tempKeys(t)
	made, err := EnsureKeys(p)
	if err != nil || !made {
		t.Fatalf("first EnsureKeys: made=%v err=%v", made, err)
	}
	before, _ := os.ReadFile(p.Private)
	made, err = EnsureKeys(p)
	after, _ := os.ReadFile(p.Private)
	if err != nil || made || string(before) != string(after) {
		t.Fatalf("second EnsureKeys must keep the pair: made=%v err=%v", made, err)
	}
}

func TestKeyFileRefusals(t *testing.T) {
	p := tempKeys(t)
	if _, err := GenerateKeys(p, false); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(p.Private)
	write := func(name string, data []byte, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	privPEM, _ := os.ReadFile(p.Private)
	pubPEM, _ := os.ReadFile(p.Public)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 1024)
	rsaDER, _ := x509.MarshalPKCS8PrivateKey(rsaKey)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecPubDER, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)

	var (
		perm   *KeyPermissionError
		format *KeyFormatError
		typ    *KeyTypeError
	)
	cases := []struct {
		name   string
		load   func(string) error
		path   string
		target any
		text   string
	}{
		{"private group-readable", loadPriv, write("g.key", privPEM, 0o640), &perm, "mode 0640"},
		{"private world-readable", loadPriv, write("w.key", privPEM, 0o604), &perm, "mode 0604"},
		{"public group-writable", loadPub, write("g.pub", pubPEM, 0o664), &perm, "mode 0664"},
		{"public as private", loadPriv, write("pub-as-priv.key", pubPEM, 0o600), &format, `"PUBLIC KEY", want "PRIVATE KEY"`},
		{"private as public", loadPub, write("priv-as-pub.pub", privPEM, 0o644), &format, `"PRIVATE KEY", want "PUBLIC KEY"`},
		{"not pem", loadPriv, write("junk.key", []byte("hello"), 0o600), &format, "no PEM block"},
		{"rsa private", loadPriv, write("rsa.key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: rsaDER}), 0o600), &typ, "rsa key"},
		{"ecdsa public", loadPub, write("ec.pub", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecPubDER}), 0o644), &typ, "ecdsa key"},
		{"corrupt der", loadPriv, write("bad.key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}), 0o600), &format, "not a PKCS#8"},
		{"two blocks", loadPub, write("two.pub", append(append([]byte{}, pubPEM...), pubPEM...), 0o644), &format, "text after"},
		{"directory", loadPriv, dir, &format, "not a regular file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.load(c.path)
			if err == nil || !errors.As(err, c.target) {
				t.Fatalf("error %T %v, want %T", err, err, c.target)
			}
			if !strings.Contains(err.Error(), c.text) || !strings.Contains(err.Error(), c.path) {
				t.Errorf("error %q should mention %q and the path", err, c.text)
			}
		})
	}
	if err := loadPriv(filepath.Join(dir, "absent.key")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent key: %v", err)
	}
}

func loadPriv(path string) error { _, err := LoadPrivateKey(path); return err }
func loadPub(path string) error  { _, err := LoadPublicKey(path); return err }

func TestDefaultKeyPaths(t *testing.T) {
	p := DefaultKeyPaths(nil, "/home/ada")
	if p.Private != "/home/ada/.config/skillscript/approval.key" || p.Public != "/home/ada/.config/skillscript/approval.pub" {
		t.Errorf("defaults %+v", p)
	}
	env := map[string]string{EnvKeyFile: "/k/priv.pem", EnvPublicKeyFile: " /k/pub.pem "}
	p = DefaultKeyPaths(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, "/home/ada")
	if p.Private != "/k/priv.pem" || p.Public != "/k/pub.pem" {
		t.Errorf("env paths %+v", p)
	}
}

func TestFingerprint(t *testing.T) {
	a, _ := testKey(0)
	b, _ := testKey(1)
	fa := Fingerprint(a)
	if !strings.HasPrefix(fa, "SHA256:") || len(fa) != len("SHA256:")+43 || fa == Fingerprint(b) || fa != Fingerprint(a) {
		t.Errorf("fingerprints %q %q", fa, Fingerprint(b))
	}
}
