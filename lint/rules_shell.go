package lint

import (
	"path"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

func ruleUnsafeShellOp() *Rule {
	return &Rule{
		ID: "unsafe-shell-op", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "Every `shell(..., unsafe=true)`.",
			Why:     "Unsafe shell runs the command through bash: pipes, redirects and expansions, and any interpolated value can inject commands. Prefer `shell(argv=[...])` or sequential structural calls; review every unsafe call.",
			Bad:     "shell(command=\"curl -s example.com | jq .x\", unsafe=true) -> R\n",
			Good:    "shell(argv=[\"curl\", \"-s\", \"-o\", \"/tmp/x.json\", \"example.com\"])\nshell(argv=[\"jq\", \".x\", \"/tmp/x.json\"]) -> R\n",
		},
		Run: func(p *Pass) {
			for _, c := range p.st.idx().callsNamed("shell") {
				if isUnsafeShell(c) {
					p.Reportf(c.Arg("unsafe"), "unsafe shell runs through bash: check every interpolated value, or use shell(argv=[...]) instead")
				}
			}
		},
	}
}

func ruleUnsafeShellDisabled() *Rule {
	return &Rule{
		ID: "unsafe-shell-disabled", Severity: ast.Error, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "An unsafe shell op while the deployment has unsafe shell switched off (`runtime.enable_unsafe_shell`, `SKILLSCRIPT_ENABLE_UNSAFE_SHELL`).",
			Why:     "The runtime refuses the op with UnsafeShellDisabledError; catching it at authoring time saves a failed run.",
			Bad:     "shell(command=\"ls | wc -l\", unsafe=true) -> N\n",
			Good:    "shell(argv=[\"ls\"]) -> LIST\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.UnsafeShellKnown || p.Ctx.UnsafeShell {
				return
			}
			for _, c := range p.st.idx().callsNamed("shell") {
				if isUnsafeShell(c) {
					p.Reportf(c.Arg("unsafe"), "unsafe shell is switched off in this deployment (runtime.enable_unsafe_shell is false): the runtime will refuse this op")
				}
			}
		},
	}
}

// shellBinary returns the binary a shell op runs and the node naming it;
// ok is false when it is dynamic or absent.
func shellBinary(c *ast.CallStmt) (bin string, at ast.Node, ok bool) {
	return check.ShellBinary(c)
}

func ruleShellBinaryNotAllowed() *Rule {
	return &Rule{
		ID: "shell-binary-not-allowed", Severity: ast.Error, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "A shell op whose binary is not on the operator's shell allowlist (`SKILLSCRIPT_SHELL_ALLOWLIST`, `shellAllowlist`, `--allow-shell`). Unsafe shell needs `bash` on the list.",
			Why:     "The allowlist is default-deny and the author cannot bypass it; the runtime refuses the op with ShellBinaryNotAllowedError.",
			Bad:     "shell(command=\"wget https://x\") -> R\n",
			Good:    "shell(command=\"curl -s https://x\") -> R   # with curl on the allowlist\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.ShellAllowlistKnown {
				return
			}
			for _, c := range p.st.idx().callsNamed("shell") {
				bin, at, ok := shellBinary(c)
				if ok && allowedBinary(p.Ctx.ShellAllowlist, bin) {
					reportWrapped(p, c)
					continue
				}
				if !ok {
					continue
				}
				if len(p.Ctx.ShellAllowlist) == 0 {
					p.Reportf(at, "shell binary %s is not allowed: the shell allowlist is empty, so every shell op is refused (set SKILLSCRIPT_SHELL_ALLOWLIST, or pass --allow-shell %s to skillc run)", bin, bin)
					continue
				}
				p.Reportf(at, "shell binary %s is not on the shell allowlist (%s)%s", bin, strings.Join(p.Ctx.ShellAllowlist, ", "), didYouMean(closest(bin, p.Ctx.ShellAllowlist)))
			}
		},
	}
}

// reportWrapped reports the programs a wrapper on the allowlist would run
// (env rm, xargs rm, timeout 5 rm) that are not on it themselves: the
// runtime checks every program of the chain.
func reportWrapped(p *Pass, c *ast.CallStmt) {
	if isUnsafeShell(c) {
		return
	}
	argv, ok := check.ShellArgv(c)
	if !ok {
		return
	}
	chain := lang.ClassifyShell(argv).Chain
	for _, bin := range chain[1:] {
		if bin != "" && !allowedBinary(p.Ctx.ShellAllowlist, bin) {
			p.Reportf(c.Name, "shell binary %s (run by %s) is not on the shell allowlist (%s): the runtime checks every program a wrapper runs", bin, chain[0], strings.Join(p.Ctx.ShellAllowlist, ", "))
			return
		}
	}
}

// allowedBinary matches bin against the allowlist by full path or base name.
func allowedBinary(list []string, bin string) bool {
	for _, a := range list {
		if a == bin || a == "*" || path.Base(a) == path.Base(bin) && (!strings.Contains(a, "/") || !strings.Contains(bin, "/")) {
			return true
		}
	}
	return false
}

func ruleShellQuotedVarInCommand() *Rule {
	return &Rule{
		ID: "shell-quoted-var-in-command", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`'${X}'` quoting inside `shell(command=...)`.",
			Why:     "skillc keeps a substituted value inside its one argument whatever it contains, so the quotes do nothing here; but a runtime that substitutes before tokenizing (the reference) keeps a quoted multi-word value together only until the value itself contains a quote, and then the argument breaks, silently and only on some inputs. Pass arguments with `argv=[...]`.",
			Bad:     "shell(command=\"say -v Jamie '${TEXT}'\")\n",
			Good:    "shell(argv=[\"say\", \"-v\", \"Jamie\", \"${TEXT}\"])\n",
		},
		Run: func(p *Pass) {
			for _, c := range p.st.idx().callsNamed("shell") {
				if isUnsafeShell(c) {
					continue
				}
				a := c.Arg("command")
				if a == nil {
					continue
				}
				for _, s := range quotedSubsts(textOf(a.Value)) {
					p.Reportf(s, "%s is wrapped in quotes inside command=: a value containing a quote breaks the argument; use shell(argv=[...]) and pass %s as its own element", p.Text(s.Range), p.Text(s.Range))
				}
			}
		},
	}
}

// quotedSubsts returns the substitutions of t that sit directly between
// quote characters ('${X}' or "${X}").
func quotedSubsts(t *ast.Text) []*ast.Subst {
	if t == nil {
		return nil
	}
	var out []*ast.Subst
	for i, part := range t.Parts {
		s, ok := part.(*ast.Subst)
		if !ok || i == 0 || i == len(t.Parts)-1 {
			continue
		}
		before, ok1 := t.Parts[i-1].(*ast.Lit)
		after, ok2 := t.Parts[i+1].(*ast.Lit)
		if !ok1 || !ok2 || before.Value == "" || after.Value == "" {
			continue
		}
		q := before.Value[len(before.Value)-1]
		if (q == '\'' || q == '"') && after.Value[0] == q {
			out = append(out, s)
		}
	}
	return out
}

func ruleUnsafeShellAmbiguousSubst() *Rule {
	return &Rule{
		ID: "unsafe-shell-ambiguous-subst", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "In an `unsafe=true` shell command, a `$(x)` that could be bash command substitution or a legacy skillscript reference.",
			Why:     "`$(date +%s)` is bash, but `$(NAME)` is also the retired substitution shape. Write `${NAME}` for a variable and `$$(...)` for bash so the meaning is explicit.",
			Bad:     "shell(command=\"cp f /tmp/backup-$(date +%s)\", unsafe=true)\n",
			Good:    "shell(command=\"cp f /tmp/backup-$$(date +%s)\", unsafe=true)\n",
		},
		Run: func(p *Pass) {
			for _, r := range p.st.idx().legacyRefs {
				if !inUnsafeShellLegacy(p, r) {
					continue
				}
				if r.Subst.Bad == "" && r.Declared() {
					continue // a declared legacy reference: deprecated-substitution-shape
				}
				src := p.Text(r.Subst.Range)
				p.Reportf(r.Subst, "%s in an unsafe shell command is ambiguous: write $%s for bash command substitution, or ${...} for a skill variable", src, src).
					WithFix("escape as bash command substitution", r.Subst.Range, "$"+src)
			}
		},
	}
}

func ruleUnsafeShellUnescapedSubst() *Rule {
	return &Rule{
		ID: "unsafe-shell-unescaped-subst", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "In an `unsafe=true` shell command, a variable interpolated without the `|shell` filter (`${X}`, or the legacy `$(X)` when X is a variable of the skill).",
			Why:     "bash interprets the value: spaces split it and `;`, `$( )` or quotes in it run commands. `${X|shell}` quotes it safely.",
			Bad:     "shell(command=\"echo ${RAW} | jq .x\", unsafe=true) -> R\n",
			Good:    "shell(command=\"echo ${RAW|shell} | jq .x\", unsafe=true) -> R\n",
		},
		Run: func(p *Pass) {
			for _, c := range p.st.idx().callsNamed("shell") {
				if !isUnsafeShell(c) {
					continue
				}
				a := c.Arg("command")
				if a == nil {
					continue
				}
				for _, s := range textOf(a.Value).Substs() {
					if s.Bad != "" || s.Root == nil || hasFilter(s, "shell") || (s.Legacy && !skillVar(p, s.Root.Name)) {
						continue // a legacy $(word) naming no variable is bash's own
					}
					src := p.Text(s.Range)
					fixed := "${" + src[2:len(src)-1] + "|shell}"
					p.Reportf(s, "%s is interpolated into bash unescaped: write %s", src, fixed).
						WithFix("escape with |shell", s.Range, fixed)
				}
			}
		},
	}
}

// skillVar reports whether name is a variable the skill declares or binds
// (a legacy $(name) then substitutes it; otherwise bash runs it).
func skillVar(p *Pass, name string) bool {
	if _, ok := p.Info.Declared[name]; ok {
		return true
	}
	for _, b := range p.Info.Binds {
		if b.Name == name {
			return true
		}
	}
	return false
}
