package approval

import (
	"os"
	"testing"
)

// BenchmarkVerify verifies the signature of a typical 20-line skill
// (testdata/report.skill.md): canonical input plus Ed25519.
func BenchmarkVerify(b *testing.B) {
	src, err := os.ReadFile("testdata/report.skill.md")
	if err != nil {
		b.Fatal(err)
	}
	pub, priv := testKey(0)
	token := Sign(priv, src)
	signed := Stamp(src, "Approved "+token)
	b.SetBytes(int64(len(signed)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Verify(pub, signed, token); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCanonical is the signing-input step alone.
func BenchmarkCanonical(b *testing.B) {
	src, err := os.ReadFile("testdata/report.skill.md")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Canonical(src)
	}
}
