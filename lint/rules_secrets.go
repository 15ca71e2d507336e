package lint

import (
	"strings"
	"unicode/utf8"

	"github.com/skillscript/skillc/ast"
)

// secretUse is one {{secret.NAME}} marker and whether it sits in a sink.
type secretUse struct {
	ref  *ast.SecretRef
	sink bool
	op   ast.Stmt // enclosing op, nil in headers and the template
}

// secretUses returns every secret marker of the file in headers, the
// template and op arguments, conditions and values (from the file's one
// traversal, see scan).
func (s *state) secretUses() []secretUse { return s.scan().secrets }

// isSecretSink reports whether op may receive a secret: shell(...) or a
// "$ conn.tool" dispatch.
func isSecretSink(op ast.Stmt) bool {
	switch s := op.(type) {
	case *ast.CallStmt:
		return callName(s) == "shell"
	case *ast.DispatchStmt:
		return s.Connector != nil
	}
	return false
}

func ruleSecretUseOnly() *Rule {
	return &Rule{
		ID: "secret-use-only", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `{{secret.NAME}}` marker outside a sink (`shell(...)` arguments or `$ conn.tool` arguments).",
			Why:     "Secrets are use-only: the runtime injects them only where a command or connector consumes them, never into variables, emits, conditions, files, notifications, fallbacks or the output.",
			Bad:     "emit(text=\"key is {{secret.API_KEY}}\")\n",
			Good:    "$ http.post url=\"https://api.example.com\" authorization=\"Bearer {{secret.API_KEY}}\" -> R\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, u := range p.st.secretUses() {
				if u.sink {
					continue
				}
				where := "here"
				if u.op != nil {
					where = "in " + opLabel(u.op)
				}
				p.Reportf(u.ref, "secret marker %s is not allowed %s: secrets may only be placed in shell(...) or \"$ conn.tool\" arguments", p.Text(u.ref.Range), where)
			}
		},
	}
}

func ruleSecretUndeclared() *Rule {
	return &Rule{
		ID: "secret-undeclared", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `{{secret.NAME}}` marker with no `# Requires: secret.NAME` declaration.",
			Why:     "The `# Requires:` lines are the approver's view of every credential a skill can reach; the runtime resolves only declared names.",
			Bad:     "t:\n    shell(argv=[\"curl\", \"-H\", \"Authorization: Bearer {{secret.API_KEY}}\", \"https://x\"]) -> R\n",
			Good:    "# Requires: secret.API_KEY\nt:\n    shell(argv=[\"curl\", \"-H\", \"Authorization: Bearer {{secret.API_KEY}}\", \"https://x\"]) -> R\n",
		},
		local: true,
		Run: func(p *Pass) {
			var declared []string
			for n := range p.Info.Secrets {
				declared = append(declared, n)
			}
			for _, u := range p.st.secretUses() {
				name := u.ref.Name
				if name == "" || p.Info.Secrets[name] != nil {
					continue
				}
				s := closest(name, declared)
				p.Reportf(u.ref, "secret %s is not declared: add \"# Requires: secret.%s\"%s", name, name, didYouMean(s))
			}
		},
	}
}

func ruleSecretDynamicName() *Rule {
	return &Rule{
		ID: "secret-dynamic-name", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A secret marker whose name is not a plain literal identifier (`{{secret.${NAME}}}`).",
			Why:     "Secret names are compile-time literals matched exactly against `# Requires:`; substitution never reaches inside a marker, so a computed name cannot work and would defeat review.",
			Bad:     "shell(command=\"curl -H 'X-Key: {{secret.${WHICH}}}' https://x\")\n",
			Good:    "shell(command=\"curl -H 'X-Key: {{secret.API_KEY}}' https://x\")\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, u := range p.st.secretUses() {
				if u.ref.Bad != "" {
					p.Reportf(u.ref, "secret marker %s does not name a secret literally: write {{secret.NAME}} with a plain identifier", p.Text(u.ref.Range))
				}
			}
		},
	}
}

func ruleCredentialInArgs() *Rule {
	return &Rule{
		ID: "credential-in-args", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A credential written into the skill: a literal value for a credential-named argument (`api_key=`, `password=`, `token=`), or a credential-shaped literal (`Bearer ...`, `sk-...`, `ghp_...`, a JWT).",
			Why:     "Skill source is stored, shared, traced and shown to agents. Declare the secret (`# Requires: secret.NAME`) and place `{{secret.NAME}}` in the sink instead.",
			Bad:     "$ stripe.charge api_key=sk-live-abc amount=100\n",
			Good:    "# Requires: secret.STRIPE_KEY\n$ stripe.charge api_key=\"{{secret.STRIPE_KEY}}\" amount=100\n",
		},
		local: true,
		Run: func(p *Pass) {
			sc := p.st.scan()
			for _, a := range sc.credArgs {
				p.Reportf(a.Value, "argument %s holds a literal credential: declare \"# Requires: secret.NAME\" and write %s=\"{{secret.NAME}}\"", a.Key.Name, a.Key.Name)
			}
			for _, l := range sc.credLits {
				if isCredentialValue(l.Value) {
					p.Reportf(l, "this looks like a credential written into the skill: declare \"# Requires: secret.NAME\" and use {{secret.NAME}} in the sink")
				}
			}
		},
	}
}

func opArgs(s ast.Stmt) []*ast.Arg {
	switch s := s.(type) {
	case *ast.DispatchStmt:
		return s.Args
	case *ast.CallStmt:
		return s.Args
	}
	return nil
}

// credentialAnchors are lower-case words one of which occurs in any
// ASCII text that isCredentialValue accepts: every alternative of the
// expression starts with one of them or with a credential-named key, and
// every credential key name contains one of the last nine.
var credentialAnchors = [...]string{"bearer", "sk-", "gh", "xox", "akia", "eyj",
	"key", "secret", "password", "passwd", "pwd", "token", "auth", "credential"}

// mayBeCredential is a cheap necessary condition for isCredentialValue:
// the matcher only runs on literals that contain one of credentialAnchors
// (ignoring ASCII case). Text holding a non-ASCII byte always goes to the
// matcher, whose case folding also matches two non-ASCII letters (the
// Kelvin sign for k, the long s for s).
func mayBeCredential(v string) bool {
	if len(v) < 5 {
		return false // the shortest match, "sk-" plus three characters, has six bytes
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 0x80 {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		for _, a := range anchorsFrom[c] {
			if hasPrefixLower(v[i:], a) {
				return true
			}
		}
	}
	return false
}

// anchorsFrom lists credentialAnchors by their first byte.
var anchorsFrom = func() (m [128][]string) {
	for _, a := range credentialAnchors {
		m[a[0]] = append(m[a[0]], a)
	}
	return m
}()

// hasPrefixLower reports whether s starts with the lower-case ASCII
// prefix, ignoring the case of s's ASCII letters.
func hasPrefixLower(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for j := 0; j < len(prefix); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[j] {
			return false
		}
	}
	return true
}

func looksLikePlaceholder(v string) bool {
	v = strings.ToLower(v)
	return strings.Contains(v, "{{secret.") || v == "true" || v == "false" || v == "none" || v == "null"
}

// The credential matchers below are hand-written forms of two regular
// expressions (kept in credential_match_test.go, which checks the
// matchers against them: TestCredentialMatchers, FuzzCredentialKey,
// FuzzCredentialValue). Compiling the expressions cost about half a
// millisecond of every check process that met a credential-like name
// (issue 25). Both expressions were case-insensitive, so the matchers
// compare folded text: ASCII letters in lower case, and the two non-ASCII
// letters that Unicode simple case folding joins to ASCII ones, U+212A
// (KELVIN SIGN) to k and U+017F (LATIN SMALL LETTER LONG S) to s.

// foldAt returns the folded character of the rune at s[i:] and the rune's
// width: ASCII in lower case, 'k' for U+212A, 's' for U+017F, and 0xFF
// (which no pattern holds) for any other non-ASCII rune or invalid byte.
func foldAt(s string, i int) (byte, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return c, 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	switch r {
	case '\u212a':
		return 'k', w
	case '\u017f':
		return 's', w
	}
	return 0xFF, w
}

// maxCredentialKey is the length of the longest credential key name
// ("encryption_secret").
const maxCredentialKey = 17

// isCredentialKey reports whether key, as a whole, is a credential-named
// argument: api_key, password, auth_token, signing-secret, ... (see
// credentialKeyFolded), in any case, with "_", "-" or nothing between the
// words.
func isCredentialKey(key string) bool {
	var buf [maxCredentialKey]byte
	n := 0
	for i := 0; i < len(key); {
		if n == len(buf) {
			return false
		}
		c, w := foldAt(key, i)
		buf[n] = c
		n++
		i += w
	}
	return credentialKeyFolded(buf[:n])
}

// credentialSingles are the credential key names of one word.
var credentialSingles = [...]string{"apikey", "password", "passwd", "pwd", "token", "bearer",
	"authorization", "auth", "credential", "credentials", "secret"}

// The second words of the two-word credential key names.
const (
	secondKey = 1 << iota
	secondToken
	secondSecret
)

// credentialPairs are the credential key names of two words, "_", "-" or
// nothing between them: each first word with the second words it takes.
var credentialPairs = [...]struct {
	first   string
	seconds int
}{
	{"api", secondKey | secondToken}, {"access", secondKey | secondToken}, {"secret", secondKey | secondToken},
	{"client", secondSecret}, {"private", secondKey}, {"webhook", secondSecret},
	{"auth", secondToken}, {"refresh", secondToken}, {"id", secondToken}, {"session", secondToken},
	{"bearer", secondToken}, {"oauth", secondToken}, {"csrf", secondToken},
	{"signing", secondKey | secondSecret}, {"encryption", secondKey | secondSecret}, {"master", secondKey | secondSecret},
	{"shared", secondKey | secondSecret}, {"hmac", secondKey | secondSecret},
}

// credentialKeyFolded is isCredentialKey for folded text (see foldAt).
func credentialKeyFolded(b []byte) bool {
	if len(b) < 3 { // the shortest name is "pwd"
		return false
	}
	for _, w := range credentialSingles {
		if string(b) == w {
			return true
		}
	}
	for _, p := range credentialPairs {
		if len(b) <= len(p.first) || b[0] != p.first[0] || string(b[:len(p.first)]) != p.first {
			continue
		}
		rest := b[len(p.first):]
		if rest[0] == '_' || rest[0] == '-' {
			rest = rest[1:]
		}
		var second int
		switch string(rest) {
		case "key":
			second = secondKey
		case "token":
			second = secondToken
		case "secret":
			second = secondSecret
		}
		if p.seconds&second != 0 {
			return true
		}
	}
	return false
}

// isCredentialValue reports whether v holds a literal credential shape
// anywhere: "Bearer " and a token, a well-known token prefix (sk-, ghp_,
// xoxb-, AKIA), a JWT, or credential-named key text ("api_key: ...",
// "password=...") whose value is a literal of 8 or more characters. Every
// shape starts at a word boundary (ASCII word characters, as in Go's
// regular expressions).
func isCredentialValue(v string) bool {
	for i := 0; i < len(v); {
		c, w := foldAt(v, i)
		if c != 0xFF && wordBoundary(v, i) && credentialAt(v, i, c) {
			return true
		}
		i += w
	}
	return false
}

// wordBoundary reports whether s[i] is at an ASCII word boundary: exactly
// one of the bytes before and at i is a word character (a byte of a
// non-ASCII rune never is).
func wordBoundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	return before != (i < len(s) && isWordByte(s[i]))
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// credentialAt reports whether a credential shape starts at s[i], whose
// folded character is c.
func credentialAt(s string, i int, c byte) bool {
	m := foldMatcher{s: s, i: i}
	switch c {
	case 'b':
		if m.word("bearer") && m.run(isSpace) >= 1 && m.run(isBearerChar) >= 6 {
			return true
		}
	case 's':
		if m.word("sk-") && m.run(isTokenChar) >= 3 {
			return true
		}
	case 'g':
		if m.word("gh") && m.one(func(c byte) bool { return strings.IndexByte("pousr", c) >= 0 }) &&
			m.word("_") && m.run(isAlnum) >= 3 {
			return true
		}
	case 'x':
		if m.word("xox") && m.one(func(c byte) bool { return strings.IndexByte("abprs", c) >= 0 }) &&
			m.word("-") && m.run(func(c byte) bool { return isAlnum(c) || c == '-' }) >= 6 {
			return true
		}
	case 'a':
		if m.word("akia") && m.run(isAlnum) >= 12 {
			return true
		}
	case 'e':
		if m.word("eyj") && m.run(isTokenChar) >= 8 && m.word(".") && m.run(isTokenChar) >= 8 &&
			m.word(".") && m.run(isTokenChar) >= 4 {
			return true
		}
	}
	return credentialKeyValueAt(s, i)
}

// credentialKeyValueAt reports whether credential-named key text starts
// at s[i]: the key, an optional quote, "=" or ":" between optional
// spaces, an optional quote, and 8 or more value characters. The key is
// the whole run of letters, "_" and "-" from i, since none of them may
// follow it.
func credentialKeyValueAt(s string, i int) bool {
	var buf [maxCredentialKey]byte
	n := 0
	m := foldMatcher{s: s, i: i}
	for {
		c, w := m.peek()
		if !('a' <= c && c <= 'z' || c == '_' || c == '-') {
			break
		}
		if n == len(buf) {
			return false
		}
		buf[n] = c
		n++
		m.i += w
	}
	if !credentialKeyFolded(buf[:n]) {
		return false
	}
	m.one(isQuote)
	m.run(isSpace)
	if !m.one(func(c byte) bool { return c == ':' || c == '=' }) {
		return false
	}
	m.run(isSpace)
	m.one(isQuote)
	return m.run(func(c byte) bool { return isAlnum(c) || strings.IndexByte("_+/.~-", c) >= 0 }) >= 8
}

// foldMatcher walks folded characters of s from i.
type foldMatcher struct {
	s string
	i int
}

// peek returns the folded character at the cursor and its width (0xFF at
// the end).
func (m *foldMatcher) peek() (byte, int) {
	if m.i >= len(m.s) {
		return 0xFF, 0
	}
	return foldAt(m.s, m.i)
}

// word consumes w (lower-case ASCII) if the text continues with it.
func (m *foldMatcher) word(w string) bool {
	j := m.i
	for k := 0; k < len(w); k++ {
		if j >= len(m.s) {
			return false
		}
		c, n := foldAt(m.s, j)
		if c != w[k] {
			return false
		}
		j += n
	}
	m.i = j
	return true
}

// one consumes one character in the class.
func (m *foldMatcher) one(in func(byte) bool) bool {
	c, w := m.peek()
	if w == 0 || !in(c) {
		return false
	}
	m.i += w
	return true
}

// run consumes the characters in the class and returns how many.
func (m *foldMatcher) run(in func(byte) bool) int {
	n := 0
	for m.one(in) {
		n++
	}
	return n
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func isQuote(c byte) bool { return c == '"' || c == '\'' }

func isAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// isTokenChar is [a-z0-9_-].
func isTokenChar(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

// isBearerChar is [a-z0-9._~+/=-].
func isBearerChar(c byte) bool { return isAlnum(c) || strings.IndexByte("._~+/=-", c) >= 0 }
