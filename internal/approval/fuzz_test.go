package approval

import (
	"errors"
	"strings"
	"testing"
)

// unsignedLines marks, for each byte of src, whether it lies on a line
// (terminator excluded) that the reference rule leaves out of the signing
// input.
func unsignedLines(src []byte) []bool {
	marks := make([]bool, len(src))
	start := 0
	for i := 0; i <= len(src); i++ {
		if i == len(src) || src[i] == '\n' || src[i] == '\r' {
			if unsignedRef.Match(src[start:i]) {
				for j := start; j < i; j++ {
					marks[j] = true
				}
			}
			start = i + 1
		}
	}
	return marks
}

// checkTamper changes byte i of a signed source to c and checks the
// verdict against the reference: a change that makes the source
// unsignable is refused with the reference's line; otherwise it verifies
// exactly when the reference signing input is unchanged. A change inside
// a # Status:/# Tags: header line that keeps the line one verifies; any
// other change fails, except swapping one line terminator for another
// ("\n" and "\r" are the same line end).
func checkTamper(t *testing.T, signed []byte, refSigned string, token string, i int, c byte) {
	t.Helper()
	pub, _ := testKey(0)
	mut := append([]byte(nil), signed...)
	old := mut[i]
	mut[i] = c
	err := Verify(pub, mut, token)
	refMut, bad := refSplit(string(mut))
	if bad != 0 {
		var ue *UnsignableLineError
		if !errors.As(err, &ue) || ue.Line != bad {
			t.Fatalf("byte %d %q->%q: reference refuses line %d, Verify: %v\n%q", i, old, c, bad, err, mut)
		}
		return
	}
	same := refMut == refSigned
	if same != (err == nil) {
		t.Fatalf("byte %d %q->%q: reference says unchanged=%v, Verify: %v\n%q", i, old, c, same, err, mut)
	}
	if err != nil {
		var mm *SignatureMismatchError
		if !errors.As(err, &mm) {
			t.Fatalf("tampered body: %T %v, want *SignatureMismatchError", err, err)
		}
	}
	onUnsigned := unsignedLines(signed)[i]
	lineEnd := (old == '\n' || old == '\r') && (c == '\n' || c == '\r')
	joinsUnsigned := c != '\n' && c != '\r' && unsignedRef.Match(lineAt(mut, i)) // e.g. a CR-LF pair broken into CR + space before "# Status:"
	if !onUnsigned && !joinsUnsigned && !lineEnd && c != old && err == nil {
		t.Fatalf("byte %d %q->%q outside Status/Tags lines still verifies", i, old, c)
	}
	if onUnsigned && unsignedRef.Match(lineAt(mut, i)) && err != nil && !strings.ContainsAny(string(c), "\r\n") {
		t.Fatalf("byte %d %q->%q confined to a Status/Tags line broke the signature", i, old, c)
	}
}

// lineAt returns the line of b containing offset i.
func lineAt(b []byte, i int) []byte {
	s, e := i, i
	for s > 0 && b[s-1] != '\n' && b[s-1] != '\r' {
		s--
	}
	for e < len(b) && b[e] != '\n' && b[e] != '\r' {
		e++
	}
	return b[s:e]
}

// TestEverySingleByteChange tries every position of every testdata skill
// with several replacement bytes.
func TestEverySingleByteChange(t *testing.T) {
	_, priv := testKey(0)
	for _, src := range seeds(t) {
		token := Sign(priv, src)
		signed := Stamp(src, "Approved "+token)
		refSigned, _ := refSplit(string(signed))
		for i := range signed {
			for _, c := range []byte{'x', ' ', '#', ':', '\n', '\r', 0x00, 0xff, signed[i] ^ 0x20} {
				checkTamper(t, signed, refSigned, token, i, c)
			}
		}
	}
}

func FuzzTamper(f *testing.F) {
	for _, src := range seeds(f) {
		f.Add(src, uint(0), byte('x'))
		f.Add(src, uint(len(src)/2), byte('\n'))
	}
	_, priv := testKey(0)
	f.Fuzz(func(t *testing.T, src []byte, pos uint, c byte) {
		if len(src) == 0 {
			return
		}
		token := Sign(priv, src)
		signed := Stamp(src, "Approved "+token)
		refSigned, _ := refSplit(string(signed))
		checkTamper(t, signed, refSigned, token, int(pos%uint(len(signed))), c)
	})
}

// FuzzCanonical checks Canonical and CheckSignable against the reference
// splitter (and, for a signable source, against the reference runtime's
// rule), and that stamping a signable source never changes its signing
// input.
func FuzzCanonical(f *testing.F) {
	for _, src := range seeds(f) {
		f.Add(src)
	}
	f.Add([]byte("\u00a0#\u3000TAGS :x\r\r\n# Status:"))
	f.Add([]byte("# Skill: a\n\nmain:\n    shell(command=\"\"\"x\n# Tags: y\n\"\"\")\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkAgainstRef(t, src)
		if CheckSignable(src) != nil {
			return
		}
		got := string(Canonical(src))
		if again := string(Canonical([]byte(got))); again != got {
			t.Fatalf("Canonical is not idempotent on %q: %q", got, again)
		}
		if stamped := Stamp(src, "Approved v3:x"); string(Canonical(stamped)) != got || CheckSignable(stamped) != nil {
			t.Fatalf("Stamp changed the signing input of %q, or made it unsignable: %q", src, stamped)
		}
	})
}

// FuzzParseToken: any token is accepted only when it is v3 with a
// 64-byte signature, and never panics.
func FuzzParseToken(f *testing.F) {
	_, priv := testKey(0)
	f.Add(Sign(priv, []byte(body)))
	f.Add("v1:abc")
	f.Add("v3:")
	f.Add("")
	f.Fuzz(func(t *testing.T, token string) {
		sig, err := ParseToken(token)
		if err == nil && (len(sig) != 64 || !strings.HasPrefix(strings.TrimSpace(token), "v3:")) {
			t.Fatalf("accepted %q", token)
		}
	})
}
