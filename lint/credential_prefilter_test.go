package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// credentialSamples are texts on both sides of credentialValue, including
// the non-ASCII letters its case folding matches.
var credentialSamples = []string{
	"", "hello", "Bearer abcdef12", "bearer  x.y~z+1/=", "BEARER ab", "sk-abc", "SK-a_b", "xsk-abc",
	"ghp_abc", "GHO_123", "ghx_abc", "xoxb-123456", "AKIA0123456789AB", "akia0123456789ab",
	"eyJabcdefgh.abcdefgh.abcd", "api_key=abcdefgh", "API-KEY: 'abcdefgh'", "password=hunter22",
	"pwd = 12345678", "auth:abcdefgh", "credentials=abcdefgh", "token \"abcdefghij\"",
	"signing_secret=abcdefgh", "x\u212aey=abcdefghij", "\u017fk-abc", "pa\u017f\u017fword=abcdefgh",
	"monkey=abcdefgh", "the key is short", "value 1 start",
}

// TestCredentialPrefilter checks that mayBeCredential never rejects a text
// credentialValue matches, on the samples and on every literal line of the
// credential-in-args testdata.
func TestCredentialPrefilter(t *testing.T) {
	samples := append([]string(nil), credentialSamples...)
	files, _ := filepath.Glob("../testdata/lint/credential-in-args/*.skill.md")
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, string(src))
	}
	matched := 0
	for _, s := range samples {
		if credentialValueRE.MatchString(s) {
			matched++
			if !mayBeCredential(s) {
				t.Errorf("mayBeCredential(%q) = false, but credentialValue matches it", s)
			}
		}
	}
	if matched < 10 {
		t.Fatalf("only %d samples match credentialValue: the test lost its positive cases", matched)
	}
}

// FuzzCredentialPrefilter checks the same property on arbitrary text.
func FuzzCredentialPrefilter(f *testing.F) {
	for _, s := range credentialSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if credentialValueRE.MatchString(s) && !mayBeCredential(s) {
			t.Fatalf("mayBeCredential(%q) = false, but credentialValue matches it", s)
		}
	})
}

// mayBeCredentialByLowering is the first form of the prefilter, kept as
// the reference: lower-case the text, then look for each anchor.
func mayBeCredentialByLowering(v string) bool {
	if len(v) < 5 {
		return false
	}
	low := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 0x80 {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low = append(low, c)
	}
	for _, a := range credentialAnchors {
		if strings.Contains(string(low), a) {
			return true
		}
	}
	return false
}

// TestCredentialPrefilterSameAnswers: the single-pass prefilter answers
// as the lowering one on the samples, every anchor in every case and
// position, and every literal line of the testdata.
func TestCredentialPrefilterSameAnswers(t *testing.T) {
	samples := append([]string(nil), credentialSamples...)
	for _, a := range credentialAnchors {
		for _, s := range []string{a, strings.ToUpper(a), "xx" + a + "yy", "....." + strings.ToUpper(a[:1]) + a[1:], a[:len(a)-1] + "....."} {
			samples = append(samples, s)
		}
	}
	files, _ := filepath.Glob("../testdata/lint/*/*.skill.md")
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, strings.Split(string(src), "\n")...)
	}
	yes := 0
	for _, s := range samples {
		got, want := mayBeCredential(s), mayBeCredentialByLowering(s)
		if got != want {
			t.Fatalf("mayBeCredential(%q) = %v, the reference says %v", s, got, want)
		}
		if got {
			yes++
		}
	}
	if yes < 50 || yes == len(samples) {
		t.Fatalf("%d of %d samples pass the prefilter: the samples lost one side", yes, len(samples))
	}
}

// FuzzCredentialPrefilterSameAnswers checks the same on arbitrary text.
func FuzzCredentialPrefilterSameAnswers(f *testing.F) {
	for _, s := range credentialSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := mayBeCredential(s), mayBeCredentialByLowering(s); got != want {
			t.Fatalf("mayBeCredential(%q) = %v, the reference says %v", s, got, want)
		}
	})
}

// credentialKeySamples are argument names on both sides of credentialKeyRE,
// including the non-ASCII letters its case folding matches.
var credentialKeySamples = []string{
	"", "text", "name", "path", "api_key", "API-KEY", "apikey", "access_key", "secret", "secret_key",
	"client_secret", "private-key", "password", "Passwd", "pwd", "token", "refresh_token", "BearerToken",
	"signing_key", "hmac-secret", "webhook_secret", "bearer", "authorization", "auth", "credential",
	"Credentials", "\u212aey", "pa\u017f\u017fword", "monkey", "keys", "author",
}
