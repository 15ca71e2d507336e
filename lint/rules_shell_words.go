package lint

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/internal/leaf/shellwords"
)

// Rules about how the runtime reads a structural shell command: literal
// text first, substituted values inside the argument they sit in
// (internal/leaf/shellwords.TokenizeTemplate), and the program chain behind
// wrappers (lang.ClassifyShell), exactly as eval/shellexec does.

func ruleShellSubstInArg() *Rule {
	return &Rule{
		ID: "shell-subst-in-arg", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A `${...}` in `shell(command=...)` that is only part of an argument (`--name=${X}`, `pre${X}`, `\"a ${X} b\"`). Values that cannot hold white space or quotes are exempt: secret markers and a last filter of `|url`, `|length` or `|isodate` (`'https://wttr.in/${L|url}?format=j1'` is fine).",
			Why:     "skillc tokenizes the literal command first and puts each substituted value inside the one argument it sits in, so a value can never add arguments (`PAT=\"*.tmp -delete\"`). Runtimes that substitute first and tokenize after would split it; an argument glued from text and values is where the two readings part. Give the value an argument of its own, or use `argv=[...]`.",
			Bad:     "shell(command=\"find work -name x${PAT}\") -> R\n",
			Good:    "shell(argv=[\"find\", \"work\", \"-name\", \"x${PAT}\"]) -> R\n",
		},
		Run: func(p *Pass) {
			for _, c := range p.st.idx().callsNamed("shell") {
				words, holes, ok, err := check.ShellCommandWords(c)
				if !ok || err != nil {
					continue
				}
				for _, w := range words {
					if w.Whole() {
						continue
					}
					for _, part := range w.Parts {
						if !part.Hole {
							continue
						}
						if !mayDiffer(holes[part.Index]) {
							continue
						}
						p.Reportf(holes[part.Index], "%s is only part of the argument %q: its value stays inside that one argument and is never split; give it an argument of its own or use argv=[...]", p.Text(holes[part.Index].Span()), wordSource(p, w, holes))
					}
				}
			}
		},
	}
}

func ruleShellFullShell() *Rule {
	return &Rule{
		ID: "shell-full-shell", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A structural or `argv=` shell op that runs a command interpreter on code — `bash -c`, `sh script.sh`, `env sh -c`, `python3 -c`, `env -S` — directly or behind a wrapper.",
			Why:     "That is a full shell without `unsafe=true`: pipes, redirects and expansions the operator has not enabled. The runtime refuses it with UnsafeShellDisabledError; write `shell(command=\"...\", unsafe=true)` so the operator's switch and the review see it.",
			Bad:     "shell(argv=[\"sh\", \"-c\", \"rm -rf work\"])\n",
			Good:    "shell(command=\"rm -rf work\", unsafe=true, approved=\"cleanup\")\n",
		},
		Run: func(p *Pass) {
			for _, c := range p.st.idx().callsNamed("shell") {
				argv, ok := check.ShellArgv(c)
				if !ok {
					continue
				}
				if class := lang.ClassifyShell(argv); class.FullShell {
					p.Reportf(c.Name, "this shell op %s: a full shell runs only as shell(command=\"...\", unsafe=true), which the operator must enable", class.Mutating)
				}
			}
		},
	}
}

// wordSource renders a command word with its holes as written.
func wordSource(p *Pass, w shellwords.Word, holes []ast.TextPart) string {
	var b strings.Builder
	for _, part := range w.Parts {
		if part.Hole {
			b.WriteString(p.Text(holes[part.Index].Span()))
		} else {
			b.WriteString(part.Text)
		}
	}
	return b.String()
}

// mayDiffer reports whether a hole's value may hold white space or quotes,
// where tokenizing before and after substitution part ways: secret markers
// (provisioned by the operator) and values whose last filter is url,
// length or isodate cannot.
func mayDiffer(part ast.TextPart) bool {
	sub, ok := part.(*ast.Subst)
	if !ok {
		return false
	}
	if n := len(sub.Filters); n > 0 && sub.Filters[n-1].Name != nil {
		switch sub.Filters[n-1].Name.Name {
		case "url", "length", "isodate":
			return false
		}
	}
	return true
}
