package lint

import (
	"github.com/skillscript/skillc/ast"
)

// scanKinds are the node kinds the rules that look below the statements
// subscribe to: the nodes they report (substitutions, secret markers,
// literal text) and the nodes that give those their context.
var scanKinds = ast.Kinds(
	ast.KindSubst, ast.KindSecretRef, ast.KindLit,
	ast.KindHeader, ast.KindTemplate, ast.KindVarDecl, ast.KindArg, ast.KindFallback,
	ast.KindSetStmt, ast.KindAppendStmt, ast.KindDispatchStmt, ast.KindCallStmt,
	ast.KindLegacyOpStmt, ast.KindIfStmt, ast.KindForeachStmt, ast.KindNeedsStmt, ast.KindBadStmt,
)

// scanned is what the one traversal of the file (ast.Scan) found for the
// rules that would otherwise each walk the tree: parse-error's malformed
// substitutions, the secret markers of secret-use-only, secret-undeclared
// and secret-dynamic-name, and credential-in-args' literal arguments and
// credential-shaped literal text.
type scanned struct {
	badSubsts []*ast.Subst // Bad set and not legacy, in source order
	secrets   []secretUse
	credArgs  []*ast.Arg // credential-named kwargs with a literal value
	credLits  []*ast.Lit // literals in op kwargs, $set values and # Vars: defaults that may hold a credential
}

// scan returns the facts of the file's single traversal, computing them
// on first use.
func (s *state) scan() *scanned {
	if s.scanDone {
		return &s.scanRes
	}
	s.scanDone = true
	out := &s.scanRes
	var (
		header   *ast.Header
		template int        // depth of templates entered (0 or 1)
		stmts    []ast.Stmt // enclosing statements, innermost last
		fallback *ast.Fallback
		// credential scope of literal text: inside a kwarg whose value is
		// not itself reported, a $set value or a # Vars: default
		credArg   *ast.Arg
		credOther int
	)
	stmts = make([]ast.Stmt, 0, 8)
	ast.Scan(s.f, scanKinds, func(n ast.Node, k ast.Kind, enter bool) {
		switch k {
		case ast.KindLit:
			if enter && (credArg != nil || credOther > 0) {
				if l := n.(*ast.Lit); mayBeCredential(l.Value) {
					out.credLits = append(out.credLits, l)
				}
			}
		case ast.KindSubst:
			if enter {
				if sub := n.(*ast.Subst); sub.Bad != "" && !sub.Legacy {
					out.badSubsts = append(out.badSubsts, sub)
				}
			}
		case ast.KindSecretRef:
			if !enter {
				return
			}
			r := n.(*ast.SecretRef)
			switch {
			case len(stmts) > 0:
				op := stmts[len(stmts)-1]
				out.secrets = append(out.secrets, secretUse{ref: r, sink: isSecretSink(op) && fallback == nil, op: op})
			case header != nil || template > 0:
				out.secrets = append(out.secrets, secretUse{ref: r})
			}
		case ast.KindHeader:
			if enter {
				header = n.(*ast.Header)
			} else {
				header = nil
			}
		case ast.KindTemplate:
			if enter {
				template++
			} else {
				template--
			}
		case ast.KindVarDecl:
			if header != nil && header.Kind == ast.HeaderVars {
				if enter {
					credOther++
				} else {
					credOther--
				}
			}
		case ast.KindArg:
			a := n.(*ast.Arg)
			if !enter {
				credArg = nil
				return
			}
			if len(stmts) == 0 || a.Key == nil || a.Value == nil {
				return
			}
			if s.literalCredential(a) {
				out.credArgs = append(out.credArgs, a)
				return
			}
			credArg = a
		case ast.KindFallback:
			if len(stmts) > 0 {
				if enter {
					fallback = n.(*ast.Fallback)
				} else {
					fallback = nil
				}
			}
		case ast.KindSetStmt:
			if enter {
				credOther++
			} else {
				credOther--
			}
			fallthrough
		default: // the other statements
			if enter {
				stmts = append(stmts, n.(ast.Stmt))
			} else {
				stmts = stmts[:len(stmts)-1]
			}
		}
	})
	return out
}

// literalCredential reports whether a's value is a non-empty literal
// given to a credential-named key (api_key="sk-...").
func (s *state) literalCredential(a *ast.Arg) bool {
	v, ok := litString(a.Value)
	if !ok || v == "" || looksLikePlaceholder(v) {
		return false
	}
	key := a.Key.Name
	if s.credKeys == nil {
		s.credKeys = map[string]bool{}
	}
	is, seen := s.credKeys[key]
	if !seen {
		is = credentialKey.MatchString(key)
		s.credKeys[key] = is
	}
	return is
}
