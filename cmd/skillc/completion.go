package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// bashCompletion asks skillc itself for candidates (urfave/cli's hidden
// --generate-bash-completion flag) and hands them to bash; file names are
// completed when skillc has no candidates.
const bashCompletion = `# bash completion for skillc; load with: source <(skillc completion bash)
_skillc_complete() {
    local cur words
    cur="${COMP_WORDS[COMP_CWORD]}"
    words=("${COMP_WORDS[@]:0:COMP_CWORD}")
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$("${words[0]}" "${words[@]:1}" --generate-bash-completion 2>/dev/null)" -- "$cur"))
    if [ ${#COMPREPLY[@]} -eq 0 ]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _skillc_complete skillc
`

// zshCompletion does the same for zsh.
const zshCompletion = `#compdef skillc
# zsh completion for skillc; load with: source <(skillc completion zsh)
_skillc() {
    local -a candidates
    candidates=("${(@f)$(${words[1]} ${words[2,CURRENT-1]} --generate-bash-completion 2>/dev/null)}")
    if (( ${#candidates} )) && [[ -n ${candidates[1]} ]]; then
        compadd -a candidates
    else
        _files
    fi
}
compdef _skillc skillc
`

func completionCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash or zsh)",
		ArgsUsage: "bash|zsh",
		Action: func(c *cli.Context) error {
			switch c.Args().First() {
			case "bash":
				fmt.Fprint(s.out, bashCompletion)
			case "zsh":
				fmt.Fprint(s.out, zshCompletion)
			default:
				return cli.Exit("completion takes bash or zsh", exitUsage)
			}
			return nil
		},
	}
}
