package lint

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

func ruleUnknownRuntimeOp() *Rule {
	return &Rule{
		ID: "unknown-runtime-op", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A function-call op whose verb is not a runtime intrinsic (" + codeList(lang.Intrinsics()) + ").",
			Why:     "The function-call form is a closed list the runtime knows directly. A misspelt verb gets a fix; an external tool is called with `$ connector.tool k=v -> R`.",
			Bad:     "emitt(text=\"hi\")\n",
			Good:    "emit(text=\"hi\")\n",
		},
		Run: func(p *Pass) {
			var intrinsics []string
			for _, g := range p.st.idx().groups {
				name := g.name
				if lang.IsIntrinsic(name) {
					continue
				}
				if intrinsics == nil {
					intrinsics = lang.Intrinsics()
				}
				s := closest(name, intrinsics)
				for _, c := range g.calls {
					if s != "" {
						p.Reportf(c.Name, "unknown op %s — did you mean %s?", name, s).WithFix("rename to "+s, c.Name.Range, s)
						continue
					}
					p.Reportf(c.Name, "unknown op %s: the function-call ops are %s; if this is an external tool, call it with \"$ connector.%s k=v -> R\"", name, strings.Join(intrinsics, ", "), name)
				}
			}
		},
	}
}

func ruleMalformedOpGrammar() *Rule {
	return &Rule{
		ID: "malformed-op-grammar", Severity: ast.Error, Needs: NeedsSource, Origin: ByParserLinter,
		Doc: Doc{
			Summary: "An op line that matches no op grammar: a retired op (`& > ~ @ ! ??`), a `$` line of the wrong shape, or positional arguments where kwargs are required.",
			Why:     "Ops have three shapes: `$set`/`$append`, `verb(k=v, ...)` and `$ conn.tool k=v`. Every call is all-kwargs (only `$ json_parse` takes one positional value). Retired single-character ops no longer run.",
			Bad:     "& legacy-inline-op\nemit(\"hi\")\n",
			Good:    "inline(skill=\"legacy-inline-op\")\nemit(text=\"hi\")\n",
		},
		local: true,
		Run: func(p *Pass) {
			x := p.st.idx()
			for _, s := range x.legacy {
				if p.skip(s.Range) {
					continue
				}
				switch s.Op {
				case "?":
					// deprecated-question
				case "??":
					p.Reportf(s, "the ?? ask op was retired and never runs: ask the model explicitly with $ llm prompt=\"...\" -> R")
				default:
					p.Reportf(s, "the %q op was retired: use a function-call op (emit(...), inline(skill=...), shell(...)) or \"$ conn.tool k=v\"", s.Op)
				}
			}
			for _, s := range x.argOps {
				if c, ok := s.(*ast.CallStmt); ok && !p.skip(c.Range) {
					for _, v := range c.Positional {
						p.Reportf(v, "%s takes keyword arguments only: write key=value", nameOf(c.Name))
					}
				}
			}
			for _, s := range x.dispatches {
				if p.skip(s.Range) {
					continue
				}
				malformedDispatch(p, s)
			}
		},
	}
}

func nameOf(id *ast.Ident) string {
	if id == nil {
		return "op"
	}
	return id.Name
}

func malformedDispatch(p *Pass, s *ast.DispatchStmt) {
	pos := s.Positional
	if s.Tool != nil && s.Connector == nil && takesPositional(s.Tool.Name) {
		if len(pos) > 1 {
			p.Reportf(pos[1], "$ %s takes one positional value (the JSON text)", s.Tool.Name)
		}
		return
	}
	if isConnectorAsTool(s) {
		pos = pos[1:]
	}
	for _, v := range pos {
		p.Reportf(v, "$ %s takes keyword arguments only: write key=value", dispatchName(s))
	}
}

// takesPositional reports whether the bare "$ name" takes one positional
// value ($ json_parse).
func takesPositional(name string) bool {
	return lang.IsTypedContract(name) && lang.Positional(name) != ""
}

// isConnectorAsTool reports the "$ conn tool ..." shape: a bare first
// word after a name that is not a typed-contract op.
func isConnectorAsTool(s *ast.DispatchStmt) bool {
	if s.Connector != nil || s.Tool == nil || isTypedOp(s.Tool.Name) || len(s.Positional) == 0 {
		return false
	}
	w, ok := s.Positional[0].(*ast.BareWord)
	if !ok || w.Pos() > s.Positional[0].Pos() {
		return false
	}
	if len(s.Args) > 0 && s.Args[0].Pos() < w.Pos() {
		return false
	}
	return isIdent(w.Raw)
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func ruleConnectorAsTool() *Rule {
	return &Rule{
		ID: "connector-as-tool", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`$ name word ...` where `name` is not a typed-contract op and `word` is a bare identifier: the dotted `$ name.word` was meant.",
			Why:     "Without the dot, the connector name is read as a tool and the tool name as a stray positional value. The fix joins them with a dot.",
			Bad:     "$ github search_issues query=\"is:open\" -> R\n",
			Good:    "$ github.search_issues query=\"is:open\" -> R\n",
		},
		Run: func(p *Pass) {
			for _, d := range p.st.idx().dispatches {
				if !isConnectorAsTool(d) {
					continue
				}
				w := d.Positional[0].(*ast.BareWord)
				fixed := d.Tool.Name + "." + w.Raw
				p.Reportf(ast.Range{From: d.Tool.Pos(), To: w.End()}, "\"$ %s %s\" names a connector and a tool: write \"$ %s\"", d.Tool.Name, w.Raw, fixed).
					WithFix("write $ "+fixed, ast.Range{From: d.Tool.Pos(), To: w.End()}, fixed)
			}
		},
	}
}

func ruleColonKwargSyntax() *Rule {
	return &Rule{
		ID: "colon-kwarg-syntax", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`key:value` instead of `key=value` in an op's arguments.",
			Why:     "Arguments are written `key=value`; the colon form is a leftover of an older syntax. The fix replaces the colon.",
			Bad:     "$ tickets.search query:\"open\" -> R\n",
			Good:    "$ tickets.search query=\"open\" -> R\n",
		},
		Run: func(p *Pass) {
			for _, s := range p.st.idx().argOps {
				for _, a := range opArgs(s) {
					if a.Colon && a.Key != nil {
						p.Reportf(a, "argument %s uses \":\"; write %s=...", a.Key.Name, a.Key.Name).
							WithFix("replace \":\" with \"=\"", a.Eq, "=")
					}
				}
			}
		},
	}
}

// argSurfaceRule builds the unknown-llm-arg / unknown-data-read-arg rules.
func argSurfaceRule(id, op string, allowed []string, doc Doc) *Rule {
	return &Rule{
		ID: id, Severity: ast.Warning, Needs: NeedsSource, Doc: doc,
		Run: func(p *Pass) {
			for _, d := range p.st.idx().dispatches {
				if d.Connector != nil || d.Tool == nil || d.Tool.Name != op {
					continue
				}
				for _, a := range d.Args {
					if a.Key == nil || contains(allowed, a.Key.Name) {
						continue
					}
					s := closest(a.Key.Name, allowed)
					if s == "" && strings.ReplaceAll(strings.ToLower(a.Key.Name), "_", "") == "maxtokens" {
						s = "maxTokens"
					}
					diag := p.Reportf(a.Key, "$ %s does not take %s (it would be dropped silently)%s; the arguments are %s", op, a.Key.Name, didYouMean(s), strings.Join(allowed, ", "))
					if s != "" {
						diag.WithFix("rename to "+s, a.Key.Range, s)
					}
				}
			}
		},
	}
}

func ruleUnknownLLMArg() *Rule {
	return argSurfaceRule("unknown-llm-arg", "llm", opKwargs("llm"), Doc{
		Summary: "A `$ llm` kwarg outside `" + strings.Join(opKwargs("llm"), "`, `") + "`.",
		Why:     "The local-model bridge only consumes these; provider options such as `temperature` or `max_tokens` are dropped silently.",
		Bad:     "$ llm prompt=\"hi\" max_tokens=100 -> R\n",
		Good:    "$ llm prompt=\"hi\" maxTokens=100 -> R\n",
	})
}

func ruleUnknownDataReadArg() *Rule {
	return argSurfaceRule("unknown-data-read-arg", "data_read", opKwargs("data_read"), Doc{
		Summary: "A `$ data_read` kwarg outside `" + strings.Join(ownKwargs("data_read"), "`, `") + "` (plus `timeout`/`approved`).",
		Why:     "The data-store bridge ignores anything else, so a misspelt filter reads everything instead of failing.",
		Bad:     "$ data_read mode=fts query=\"x\" limt=5 -> R\n",
		Good:    "$ data_read mode=fts query=\"x\" limit=5 -> R\n",
	})
}

func ruleUnknownFileEncoding() *Rule {
	return &Rule{
		ID: "unknown-file-encoding", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`file_read(encoding=...)` with a value other than `utf8` or `base64`.",
			Why:     "Only the two encodings exist; anything else fails at run time. Read binary files with `base64`.",
			Bad:     "file_read(path=\"/tmp/a.pdf\", encoding=\"binary\") -> B\n",
			Good:    "file_read(path=\"/tmp/a.pdf\", encoding=\"base64\") -> B\n",
		},
		Run: func(p *Pass) {
			encodings := fileEncodings()
			for _, c := range p.st.idx().callsNamed("file_read") {
				a := c.Arg("encoding")
				if a == nil || a.Value == nil {
					continue
				}
				v, ok := litString(a.Value)
				if !ok || contains(encodings, v) {
					continue
				}
				d := p.Reportf(a.Value, "file_read encoding %q is not supported: use \"utf8\" (the default) or \"base64\"", v)
				if s := closest(v, encodings); s != "" || strings.EqualFold(v, "utf-8") {
					if s == "" {
						s = "utf8"
					}
					d.WithFix("use "+s, a.Value.Span(), `"`+s+`"`)
				}
			}
		},
	}
}

// ownKwargs returns the kwargs of op other than the universal ones.
func ownKwargs(op string) []string {
	var out []string
	for _, k := range opKwargs(op) {
		if !lang.IsUniversal(k) {
			out = append(out, k)
		}
	}
	return out
}

// fileEncodings returns the encodings file_read accepts.
func fileEncodings() []string { return lang.ParamValues("file_read", "encoding") }

func ruleDeprecatedAddressedTo() *Rule {
	return &Rule{
		ID: "deprecated-addressed-to", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`$ data_write ... addressed_to=`, the old name of `recipients=`.",
			Why:     "The data-store contract renamed the field; the old key is not forwarded as a recipient list. The fix renames the key.",
			Bad:     "$ data_write content=\"x\" addressed_to=[\"oncall\"] approved=\"handoff\"\n",
			Good:    "$ data_write content=\"x\" recipients=[\"oncall\"] approved=\"handoff\"\n",
		},
		Run: func(p *Pass) {
			for _, d := range p.st.idx().dispatches {
				if d.Connector != nil || d.Tool == nil || d.Tool.Name != "data_write" {
					continue
				}
				if a := d.Arg("addressed_to"); a != nil {
					p.Reportf(a.Key, "addressed_to= was renamed recipients=").WithFix("rename to recipients", a.Key.Range, "recipients")
				}
			}
		},
	}
}

func ruleSetJSONLiteralAdvisory() *Rule {
	return &Rule{
		ID: "set-json-literal-advisory", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`$set V = [{...}, ...]`: an array-of-objects literal written into the skill.",
			Why:     "Structured fixtures in the body are data, not orchestration; they drift from their source. Prefer a `# Vars:` input, a data-store read or a tool that returns the list.",
			Bad:     "$set SERVICES = [{\"name\": \"auth\"}, {\"name\": \"ledger\"}]\n",
			Good:    "$ data_read mode=fts query=\"services\" -> SERVICES\n",
		},
		Run: func(p *Pass) {
			for _, s := range p.st.idx().sets {
				if s.Name == nil {
					continue
				}
				l, ok := s.Value.(*ast.ListLit)
				if !ok || len(l.Elems) == 0 {
					continue
				}
				if _, obj := l.Elems[0].(*ast.ObjectLit); obj {
					p.Reportf(l, "$set %s holds a literal array of objects: consider passing it as an input or reading it from a tool or the data store", s.Name.Name)
				}
			}
		},
	}
}

func ruleUnboundedNoDeadline() *Rule {
	return &Rule{
		ID: "unbounded-no-deadline", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "An external or effectful op (`$` dispatch, `shell`, `execute_skill`, `notify`, `file_write`) with no `timeout=`, in a skill with no `# Timeout:` or `# Deadline:`.",
			Why:     "Without a bound, a hung connector or command holds the run until the runtime's absolute default. Set a per-op `timeout=` or a skill-level `# Timeout:`/`# Deadline:`.",
			Bad:     "$ tickets.search query=\"open\" -> R\n",
			Good:    "$ tickets.search query=\"open\" timeout=30 -> R\n",
		},
		Run: func(p *Pass) {
			if p.File.Header(ast.HeaderTimeout) != nil || p.File.Header(ast.HeaderDeadline) != nil {
				return
			}
			x := p.st.idx()
			for _, s := range x.dispatches {
				if s.Tool != nil && s.Connector == nil && lang.IsTypedContract(s.Tool.Name) && !lang.IsExternal(s.Tool.Name) {
					continue
				}
				if argOf(s.Args, "timeout") == nil {
					p.Reportf(s.Dollar, "%s has no timeout: add timeout=SECONDS or a # Timeout: header", opLabel(s))
				}
			}
			for _, g := range x.groups {
				if !needsBound(g.name) {
					continue // the calls without a name are not bound either
				}
				for _, s := range g.calls {
					if argOf(s.Args, "timeout") == nil {
						p.Reportf(s.Name, "%s has no timeout: add timeout=SECONDS or a # Timeout: header", opLabel(s))
					}
				}
			}
		},
	}
}

// needsBound reports whether the intrinsic op called name should carry a
// timeout: it leaves the process or it always mutates.
func needsBound(name string) bool {
	return lang.IsIntrinsic(name) && (lang.IsExternal(name) || lang.Mutates(name) == lang.Always)
}

// opLabel names an op for messages ("$ llm", "shell(...)").
func opLabel(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.DispatchStmt:
		return "$ " + dispatchName(s)
	case *ast.CallStmt:
		return nameOf(s.Name) + "(...)"
	case *ast.SetStmt:
		return "$set"
	case *ast.AppendStmt:
		return "$append"
	}
	return "op"
}

func ruleDeprecatedQuestion() *Rule {
	return &Rule{
		ID: "deprecated-question", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "The retired `?` reasoning op.",
			Why:     "`?` asked the host agent to reason mid-skill, which made runs non-deterministic. Ask the local model explicitly with `$ llm prompt=\"...\" -> R`.",
			Bad:     "? should we escalate -> VERDICT\n",
			Good:    "$ llm prompt=\"Should we escalate? Reply yes or no.\" -> VERDICT\n",
		},
		Run: func(p *Pass) {
			for _, s := range p.st.idx().legacy {
				if s.Op != "?" {
					continue // ?? is malformed-op-grammar: it can never run
				}
				p.Reportf(s, "the %s reasoning op is retired: ask the model explicitly with $ llm prompt=\"...\" -> R", s.Op)
			}
		},
	}
}

func ruleUnquotedSubstitutionInKwarg() *Rule {
	return &Rule{
		ID: "unquoted-substitution-in-kwarg-value", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "An unquoted `key=${X}` dispatch argument whose value may contain whitespace (an op result, a `foreach` item, or a `# Vars:`/`$set` value with spaces).",
			Why:     "MCP argument parsing splits on whitespace, so a multi-word value is truncated silently. Quote it: `key=\"${X}\"`.",
			Bad:     "$ llm prompt=\"hi\" -> R\n$ tickets.search query=${R} -> T\n",
			Good:    "$ llm prompt=\"hi\" -> R\n$ tickets.search query=\"${R}\" -> T\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().inDispatch {
				d, ok := opStmt(r).(*ast.DispatchStmt)
				if !ok {
					continue
				}
				a := unquotedArgOf(d, r.Subst)
				if a == nil || !suspectOrigin(r) {
					continue
				}
				p.Reportf(a.Value, "%s=%s is unquoted and %s may contain spaces: write %s=\"%s\"", a.Key.Name, p.Text(a.Value.Span()), r.Name(), a.Key.Name, p.Text(a.Value.Span())).
					WithFix("quote the value", a.Value.Span(), `"`+p.Text(a.Value.Span())+`"`)
			}
		},
	}
}

// opStmt returns the statement a reference sits in, or nil.
func opStmt(r *check.Ref) ast.Stmt {
	if r.Op == nil {
		return nil
	}
	return r.Op.Stmt
}

// unquotedArgOf returns the kwarg of d whose unquoted value holds s.
func unquotedArgOf(d *ast.DispatchStmt, s *ast.Subst) *ast.Arg {
	for _, a := range d.Args {
		if a.Key == nil || a.Value == nil {
			continue
		}
		switch v := a.Value.(type) {
		case *ast.Subst:
			if v == s {
				return a
			}
		case *ast.BareWord:
			if v.Span().Contains(s.Range) {
				return a
			}
		}
	}
	return nil
}

// suspectOrigin reports whether r's value may hold whitespace: an op
// result, a foreach item, or a literal default/$set value with spaces.
func suspectOrigin(r *check.Ref) bool {
	for _, b := range refBinders(r) {
		switch b.Kind {
		case check.BindOp, check.BindIter:
			return true
		case check.BindVar, check.BindSet:
			if t := textOf(b.Value); t != nil && strings.ContainsAny(t.Plain(), " \t\n") {
				return true
			}
		}
	}
	return false
}
