package lint

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/oracle"
)

// The regular expressions isCredentialKey and isCredentialValue replaced,
// kept as their reference: the matchers must answer as these do on every
// input.

// credentialKeyNames are the argument names that hold credentials, as a
// regular expression alternation.
const credentialKeyNames = `api[_-]?key|apikey|access[_-]?key|secret([_-]?key)?|client[_-]?secret|private[_-]?key|password|passwd|pwd|token|` +
	`(access|auth|refresh|id|session|bearer|secret|oauth|csrf|api)[_-]?token|(signing|encryption|master|shared|hmac)[_-]?(key|secret)|` +
	`webhook[_-]?secret|bearer|authorization|auth|credentials?`

var (
	credentialKeyRE   = regexp.MustCompile(`(?i)^(` + credentialKeyNames + `)$`)
	credentialValueRE = regexp.MustCompile(`(?i)(\bbearer\s+[a-z0-9._~+/=-]{6,})|(\bsk-[a-z0-9_-]{3,})|(\bgh[pousr]_[a-z0-9]{3,})|(\bxox[abprs]-[a-z0-9-]{6,})|(\bAKIA[0-9A-Z]{12,})|(\beyJ[a-z0-9_-]{8,}\.[a-z0-9_-]{8,}\.[a-z0-9_-]{4,})` +
		`|(\b(` + credentialKeyNames + `)["']?\s*[:=]\s*["']?[a-z0-9_+/.~-]{8,})`)
)

// credentialKeyLanguage lists every name credentialKeyRE matches, in lower
// case: the expression's language is finite.
func credentialKeyLanguage() []string {
	seps := []string{"", "_", "-"}
	var out []string
	add := func(firsts, seconds []string, withSep bool) {
		for _, a := range firsts {
			for _, b := range seconds {
				if !withSep {
					out = append(out, a+b)
					continue
				}
				for _, s := range seps {
					out = append(out, a+s+b)
				}
			}
		}
	}
	add([]string{"api", "access", "private", "signing", "encryption", "master", "shared", "hmac", "secret"}, []string{"key"}, true)
	add([]string{"client", "webhook", "signing", "encryption", "master", "shared", "hmac"}, []string{"secret"}, true)
	add([]string{"access", "auth", "refresh", "id", "session", "bearer", "secret", "oauth", "csrf", "api"}, []string{"token"}, true)
	add([]string{"apikey", "secret", "password", "passwd", "pwd", "token", "bearer", "authorization", "auth", "credential", "credentials"}, []string{""}, false)
	return out
}

// credentialKeyInputs are names around the language: each name of it in
// several cases and with the two non-ASCII letters folding to k and s,
// with a character more or less, with a doubled or wrong separator.
func credentialKeyInputs() []string {
	in := append([]string(nil), credentialKeySamples...)
	for _, w := range credentialKeyLanguage() {
		in = append(in, w, strings.ToUpper(w), strings.ToUpper(w[:1])+w[1:],
			strings.ReplaceAll(w, "k", "\u212a"), strings.ReplaceAll(w, "s", "\u017f"), strings.ReplaceAll(w, "s", "S"),
			w+"s", w+"_", "_"+w, w[1:], w[:len(w)-1], " "+w, w+"\x00",
			strings.Replace(w, "_", "__", 1), strings.Replace(w, "_", ".", 1), strings.Replace(w, "-", " ", 1))
	}
	return in
}

// credentialValueInputs are texts around credentialValueRE: every key name
// with every separator shape and value length around the bound, each
// prefix shape at and below its length bound, at and after a word
// boundary, and with the non-ASCII folding letters.
func credentialValueInputs() []string {
	in := append([]string(nil), credentialSamples...)
	for _, w := range credentialKeyLanguage() {
		for _, sep := range []string{"=", ":", " = ", "\" : '", "'=\"", "\t:\n", "==", " ", "\v=", "= \"\""} {
			for _, v := range []string{"abcdefgh", "abcdefg", "ab/+.~-_9", "abcdefg!", "ab\u212acdefg"} {
				in = append(in, w+sep+v, "x"+w+sep+v, "-"+w+sep+v, "_"+w+sep+v, "é"+w+sep+v)
			}
		}
		in = append(in, strings.ReplaceAll(w, "s", "\u017f")+"=abcdefghij", "a"+strings.ReplaceAll(w, "k", "\u212a")+"=abcdefghij")
	}
	for _, s := range []string{
		"bearer abcdef", "bearer abcde", "Bearer\t\n x.y~z+1/=-", "bearerabcdefgh", "bearer  ab\u017fdef", "xbearer abcdefgh", "-bearer abcdefgh",
		"sk-abc", "sk-ab", "sk-a_b-", "\u017fk-abc", "x\u017fk-abc", "x\u212a-abc", "s\u212a-abc", "sk_abc", "1sk-abc", ".sk-abc",
		"ghp_abc", "ghs_abc", "gh\u017f_abc", "ghk_abc", "ghp_ab", "ghp_a-bc", "gho_ABC", "ghu_a\u212ac", "ghr_123",
		"xoxa-abcdef", "xoxs-abc-de", "xox\u017f-abcdef", "xoxc-abcdef", "xoxb-abcde", "xoxp-ab_cdef",
		"AKIA0123456789AB", "AKIA0123456789A", "a\u212aia0123456789ab", "akia0123456789a\u017f", "AKIA0123456789A-B",
		"eyJabcdefgh.abcdefgh.abcd", "eyJabcdefg.abcdefgh.abcd", "eyJabcdefgh.abcdefg.abcd", "eyJabcdefgh.abcdefgh.abc", "EYJ-_abcdef.abc_efgh.a-cd",
		"eyJabcdefgh..abcdefgh.abcd", "xeyJabcdefgh.abcdefgh.abcd", "\xffsk-abc", "sk-\xffabc", "\xe2\x84sk-abc", "é" + "sk-abc",
	} {
		in = append(in, s, "the "+s+" here", strings.ToUpper(s))
	}
	return in
}

// TestCredentialMatchers checks isCredentialKey and isCredentialValue
// against the regular expressions on the whole key language and inputs
// around both expressions.
func TestCredentialMatchers(t *testing.T) {
	keys := credentialKeyInputs()
	oracle.Agree(t, "isCredentialKey", isCredentialKey, credentialKeyRE, keys)
	if yes, n := matching(credentialKeyRE, keys), len(credentialKeyLanguage()); yes < 4*n {
		t.Fatalf("%d of %d key inputs match, fewer than four per name of the language (%d): the inputs lost their positive cases", yes, len(keys), n)
	}
	values := credentialValueInputs()
	oracle.Agree(t, "isCredentialValue", isCredentialValue, credentialValueRE, values)
	if yes := matching(credentialValueRE, values); yes < 1000 || yes > len(values)-1000 {
		t.Fatalf("%d of %d value inputs match: the inputs lost one side", yes, len(values))
	}
}

// matching counts the inputs re matches.
func matching(re *regexp.Regexp, inputs []string) int {
	n := 0
	for _, s := range inputs {
		if re.MatchString(s) {
			n++
		}
	}
	return n
}

// FuzzCredentialKey compares isCredentialKey with the expression.
func FuzzCredentialKey(f *testing.F) {
	for _, k := range credentialKeyInputs() {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, k string) { oracle.Check(t, "isCredentialKey", isCredentialKey, credentialKeyRE, k) })
}

// FuzzCredentialValue compares isCredentialValue with the expression.
func FuzzCredentialValue(f *testing.F) {
	// the samples and one input in fifty of the table (all of it makes
	// the fuzzer spend minutes on its baseline)
	for _, v := range credentialSamples {
		f.Add(v)
	}
	for i, v := range credentialValueInputs() {
		if i%50 == 0 {
			f.Add(v)
		}
	}
	f.Fuzz(func(t *testing.T, v string) {
		oracle.Check(t, "isCredentialValue", isCredentialValue, credentialValueRE, v)
	})
}

// BenchmarkCredentialMatch compares the matchers with the expressions they
// replaced, on the samples; "compile" is what a process paid once before
// the first match.
func BenchmarkCredentialMatch(b *testing.B) {
	keys, values := credentialKeySamples, credentialSamples
	b.Run("matchers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, k := range keys {
				isCredentialKey(k)
			}
			for _, v := range values {
				isCredentialValue(v)
			}
		}
	})
	b.Run("regexps", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, k := range keys {
				credentialKeyRE.MatchString(k)
			}
			for _, v := range values {
				credentialValueRE.MatchString(v)
			}
		}
	})
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			regexp.MustCompile(credentialKeyRE.String())
			regexp.MustCompile(credentialValueRE.String())
		}
	})
}
