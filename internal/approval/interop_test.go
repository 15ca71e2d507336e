package approval

import (
	"crypto/ed25519"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// node finds the node binary: outside CI a missing node skips loudly; with
// CI=true it fails.
func node(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node is required in CI for the Ed25519 interop test: %v", err)
		}
		t.Skipf("SKIPPED: node not found on PATH; the independent Ed25519 interop check did not run: %v", err)
	}
	return path
}

func runNode(t *testing.T, bin string, args ...string) (string, error) {
	t.Helper()
	script, _ := filepath.Abs("testdata/interop.mjs")
	out, err := exec.Command(bin, append([]string{script}, args...)...).Output()
	return string(out), err
}

// interopBodies are skills whose signing input is easy to get wrong.
func interopBodies(t *testing.T) map[string][]byte {
	out := map[string][]byte{
		"crlf-mixed.skill.md":  []byte("# Skill: m\r\n# Status: Draft\r# Tags: a\n  #  TAGS : b\r\nbody  \r\n\r\n# Deadline: 5\n"),
		"unicode-ws.skill.md":  []byte("# Skill: u\n\u00a0# Status: Draft\n\ufeff#\u2003tags:x\n# ſtatus: kept\nnaïve ✓\n"),
		"no-newline.skill.md":  []byte("# Skill: n\n# Status: Draft\nlast line"),
		"classified.skill.md":  []byte("# Skill: c\n# Classification: role=utility invocation=attach\n# Status: Draft\nx\n"),
		"near-misses.skill.md": []byte("# Statuses: x\n# Tag: y\nx # Status: z\n"),
	}
	for i, src := range seeds(t) {
		out[filepath.Base(string(rune('a'+i)))+"-seed.skill.md"] = src
	}
	return out
}

// writeBodies writes each body (through prepare) to dir, in a fixed order.
func writeBodies(t *testing.T, dir string, bodies map[string][]byte, prepare func([]byte) []byte) (names, paths []string) {
	for name := range bodies {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, prepare(bodies[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return names, paths
}

// TestNodeSignsSkillcVerifies: a signature made by Node's crypto over its
// own canonicalization verifies here, stamped into the file; a body
// edited afterwards does not.
func TestNodeSignsSkillcVerifies(t *testing.T) {
	bin := node(t)
	p := tempKeys(t)
	pub, err := GenerateKeys(p, false)
	if err != nil {
		t.Fatal(err)
	}
	bodies := interopBodies(t)
	names, paths := writeBodies(t, t.TempDir(), bodies, func(b []byte) []byte { return b })
	out, err := runNode(t, bin, append([]string{"sign", p.Private}, paths...)...)
	if err != nil {
		t.Fatalf("node sign: %v", err)
	}
	tokens := strings.Fields(out)
	if len(tokens) != len(names) {
		t.Fatalf("node printed %d tokens for %d files: %q", len(tokens), len(names), out)
	}
	for i, name := range names {
		src := bodies[name]
		stamped := Stamp(src, "Approved "+tokens[i])
		if CheckSignable(src) != nil {
			// A line led by odd white space before '#' (DECISIONS 29): the
			// signing input is still the reference's, but Verify refuses.
			sig, _ := ParseToken(tokens[i])
			if !ed25519.Verify(pub, Canonical(stamped), sig) {
				t.Errorf("%s: node's signature is not over skillc's signing input", name)
			}
			var ue *UnsignableLineError
			if err := Verify(pub, stamped, tokens[i]); !errors.As(err, &ue) {
				t.Errorf("%s: Verify = %v, want *UnsignableLineError", name, err)
			}
			continue
		}
		if err := Verify(pub, stamped, tokens[i]); err != nil {
			t.Errorf("%s: node's signature does not verify in skillc: %v", name, err)
		}
		if err := Verify(pub, append(append([]byte(nil), src...), 'x'), tokens[i]); err == nil {
			t.Errorf("%s: node's signature verified a tampered body", name)
		}
	}
}

// TestSkillcSignsNodeVerifies: a stamped file signed here verifies in Node,
// and a copy with one byte appended does not.
func TestSkillcSignsNodeVerifies(t *testing.T) {
	bin := node(t)
	p := tempKeys(t)
	if _, err := GenerateKeys(p, false); err != nil {
		t.Fatal(err)
	}
	priv, err := LoadPrivateKey(p.Private)
	if err != nil {
		t.Fatal(err)
	}
	bodies := interopBodies(t)
	tokens := map[string]string{}
	for name, src := range bodies {
		tokens[name] = Sign(priv, src)
	}
	stamp := func(b []byte) []byte { return Stamp(b, "Approved "+Sign(priv, b)) }
	names, signed := writeBodies(t, t.TempDir(), bodies, stamp)
	_, tampered := writeBodies(t, t.TempDir(), bodies, func(b []byte) []byte { return append(stamp(b), 'x') })
	args := []string{"verify", p.Public}
	for i, name := range names {
		args = append(args, signed[i], tokens[name], tampered[i], tokens[name])
	}
	out, err := runNode(t, bin, args...)
	if err != nil {
		t.Fatalf("node verify: %v", err)
	}
	verdicts := strings.Fields(out)
	if len(verdicts) != 2*len(names) {
		t.Fatalf("node printed %d verdicts for %d checks: %q", len(verdicts), 2*len(names), out)
	}
	for i, name := range names {
		if verdicts[2*i] != "valid" {
			t.Errorf("%s: node rejects skillc's signature", name)
		}
		if verdicts[2*i+1] != "invalid" {
			t.Errorf("%s: node accepts a tampered body", name)
		}
	}
}
