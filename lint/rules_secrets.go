package lint

import (
	"regexp"
	"strings"
	"sync"

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

// credentialKeyNames are the argument names that hold credentials, as a
// regular expression alternation.
const credentialKeyNames = `api[_-]?key|apikey|access[_-]?key|secret([_-]?key)?|client[_-]?secret|private[_-]?key|password|passwd|pwd|token|` +
	`(access|auth|refresh|id|session|bearer|secret|oauth|csrf|api)[_-]?token|(signing|encryption|master|shared|hmac)[_-]?(key|secret)|` +
	`webhook[_-]?secret|bearer|authorization|auth|credentials?`

// credentialKey matches a credential-named argument.
var credentialKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(` + credentialKeyNames + `)$`) })

// credentialValue matches literal credential shapes: well-known token
// prefixes, a JWT, and "key: value" / "key=value" text whose key is
// credential-named and whose value is a literal of 8 or more characters.
var credentialValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\bbearer\s+[a-z0-9._~+/=-]{6,})|(\bsk-[a-z0-9_-]{3,})|(\bgh[pousr]_[a-z0-9]{3,})|(\bxox[abprs]-[a-z0-9-]{6,})|(\bAKIA[0-9A-Z]{12,})|(\beyJ[a-z0-9_-]{8,}\.[a-z0-9_-]{8,}\.[a-z0-9_-]{4,})` +
		`|(\b(` + credentialKeyNames + `)["']?\s*[:=]\s*["']?[a-z0-9_+/.~-]{8,})`)
})

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
				if credentialValue().MatchString(l.Value) {
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
// ASCII text that credentialValue matches: every alternative of the
// expression starts with one of them or with a credential-named key, and
// every credential key name contains one of the last nine.
var credentialAnchors = [...]string{"bearer", "sk-", "gh", "xox", "akia", "eyj",
	"key", "secret", "password", "passwd", "pwd", "token", "auth", "credential"}

// mayBeCredential is a cheap necessary condition for credentialValue: the
// regular expression only runs on literals that contain one of
// credentialAnchors (ignoring ASCII case). Text holding a non-ASCII byte
// always goes to the expression, whose case folding also matches a few
// non-ASCII letters (the Kelvin sign for k, the long s for s).
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
