package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/internal/approval"
)

// TestApprovalHoverAndStaleSignature: with the operator's public key
// configured, hovering # Status: shows the key and validity, and an edit
// after approval gets stale-signature on the status line.
func TestApprovalHoverAndStaleSignature(t *testing.T) {
	dir := workspaceCopy(t)
	keys := approval.KeyPaths{Private: filepath.Join(t.TempDir(), "k"), Public: filepath.Join(t.TempDir(), "k.pub")}
	pub, err := approval.GenerateKeys(keys, false)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := approval.LoadPrivateKey(keys.Private)
	if err != nil {
		t.Fatal(err)
	}
	src := "# Skill: signed\n# Status: Draft\n# Timeout: 30\nt:\n    emit(text=\"hi\")\ndefault: t\n"
	text := string(approval.Stamp([]byte(src), "Approved "+approval.Sign(priv, []byte(src))))
	path := filepath.Join(dir, "signed.skill.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) (string, bool) {
		if k == approval.EnvPublicKeyFile {
			return keys.Public, true
		}
		return "", false
	}
	c := newTestClient(t, Options{Env: env, Debounce: -1})
	c.initialize(dir)
	u := string(uri.File(path))
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	got := hoverText(t, c, u, posOf(t, text, "# Status", 0, 3))
	if !strings.Contains(got, "valid v3 signature by key `"+approval.Fingerprint(pub)+"`") {
		t.Errorf("hover lacks the valid signature and key:\n%s", got)
	}

	edited := strings.Replace(text, `text="hi"`, `text="hello"`, 1) // not a "hi" inside the signature
	c.change(u, 2, edited)
	d := c.waitDiags(u, atVersion(2))
	stale := findDiag(d, "stale-signature")
	if stale == nil || stale.Range.Start.Line != 1 || !strings.Contains(fmt.Sprint(stale.Message), "signature no longer matches: edited after approval") {
		t.Fatalf("want stale-signature on line 2, got %+v", d.Diagnostics)
	}
	got = hoverText(t, c, u, posOf(t, edited, "# Status", 0, 3))
	if !strings.Contains(got, "signature no longer matches") {
		t.Errorf("hover after the edit:\n%s", got)
	}
}
