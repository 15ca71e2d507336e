package lint

import (
	"github.com/skillscript/skillc/ast"
)

// scanKinds are the node kinds the rules that look below the statements
// subscribe to: the nodes they report (substitutions, secret markers,
// literal text) and the nodes that tell whether literal text is in
// credential-in-args' scope.
var scanKinds = ast.Kinds(
	ast.KindSubst, ast.KindSecretRef, ast.KindLit,
	ast.KindArg, ast.KindSetStmt, ast.KindHeader, ast.KindVarDecl,
)

// secretKinds are the kinds a second traversal, made only for a file with
// secret markers, subscribes to: the markers and what decides whether one
// sits in a sink (the enclosing statement, its fallback, a header or the
// template).
var secretKinds = ast.Kinds(
	ast.KindSecretRef, ast.KindHeader, ast.KindTemplate, ast.KindFallback,
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
	done, res := &s.scanDone, &s.scanRes
	roots := []ast.Node{s.f}
	if in := s.scanIn; in != nil {
		// a local rule running over the edited target only (see incr):
		// every rule that reads the scan is local
		done, res = &s.scanEDone, &s.scanE
		roots = topLevelIn(s.f, in.r.From, in.r.NewTo)
	}
	if *done {
		return res
	}
	*done = true
	sc := fileScan{st: s, out: res}
	for _, n := range roots {
		ast.Scan(n, scanKinds, sc.visit)
	}
	if sc.secrets {
		for _, n := range roots {
			sc.out.secrets = append(sc.out.secrets, secretUsesOf(n)...)
		}
	}
	return sc.out
}

// fileScan is the state of state.scan's traversal.
type fileScan struct {
	st      *state
	out     *scanned
	header  *ast.Header
	secrets bool
	// credential scope of literal text: inside a kwarg whose value is not
	// itself reported, a $set value or a # Vars: default
	credArg   *ast.Arg
	credOther int
}

func (sc *fileScan) visit(n ast.Node, k ast.Kind, enter bool) bool {
	switch k {
	case ast.KindLit:
		if sc.credArg != nil || sc.credOther > 0 {
			if l := n.(*ast.Lit); mayBeCredential(l.Value) {
				sc.out.credLits = append(sc.out.credLits, l)
			}
		}
		return false // a leaf: no call after it
	case ast.KindSubst:
		sub := n.(*ast.Subst)
		if sub.Bad != "" && !sub.Legacy {
			sc.out.badSubsts = append(sc.out.badSubsts, sub)
		}
		// below a substitution, only a filter argument's text can hold
		// what is asked for
		for _, f := range sub.Filters {
			if f != nil && f.Arg != nil && f.Arg.Text != nil {
				return true
			}
		}
		return false
	case ast.KindSecretRef:
		sc.secrets = true
		return false
	case ast.KindHeader:
		if enter {
			sc.header = n.(*ast.Header)
		} else {
			sc.header = nil
		}
	case ast.KindVarDecl:
		if sc.header != nil && sc.header.Kind == ast.HeaderVars {
			if enter {
				sc.credOther++
			} else {
				sc.credOther--
			}
		}
	case ast.KindArg: // only calls and dispatches have kwargs
		a := n.(*ast.Arg)
		if !enter {
			sc.credArg = nil
			return true
		}
		if a.Key == nil || a.Value == nil {
			return true
		}
		if sc.st.literalCredential(a) {
			sc.out.credArgs = append(sc.out.credArgs, a)
			return true
		}
		sc.credArg = a
	case ast.KindSetStmt:
		if enter {
			sc.credOther++
		} else {
			sc.credOther--
		}
	}
	return true
}

// secretUsesOf returns the secret markers below f in headers, the template
// and the ops' arguments, conditions and values, with the statement each
// sits in and whether that is a sink.
func secretUsesOf(f ast.Node) []secretUse {
	var (
		out      []secretUse
		header   bool
		template bool
		stmts    []ast.Stmt // enclosing statements, innermost last
		fallback bool       // inside the innermost statement's (fallback: ...)
	)
	ast.Scan(f, secretKinds, func(n ast.Node, k ast.Kind, enter bool) bool {
		switch k {
		case ast.KindSecretRef:
			r := n.(*ast.SecretRef)
			switch {
			case len(stmts) > 0:
				op := stmts[len(stmts)-1]
				out = append(out, secretUse{ref: r, sink: isSecretSink(op) && !fallback, op: op})
			case header || template:
				out = append(out, secretUse{ref: r})
			}
			return false
		case ast.KindHeader:
			header = enter
		case ast.KindTemplate:
			template = enter
		case ast.KindFallback:
			if len(stmts) > 0 { // not a # Requires: fallback
				fallback = enter
			}
		default: // the statements
			if enter {
				stmts = append(stmts, n.(ast.Stmt))
			} else {
				stmts = stmts[:len(stmts)-1]
			}
		}
		return true
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
		is = isCredentialKey(key)
		s.credKeys[key] = is
	}
	return is
}
