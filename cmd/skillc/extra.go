package main

import "github.com/urfave/cli/v2"

// extraCommands lists the commands implemented in their own files
// (run, test, lsp, rules, explain).
func extraCommands(s *streams) []*cli.Command {
	cmds := []*cli.Command{runCommand(s), testCommand(s), lspCommand(), rulesCommand(s), explainCommand(s), completionCommand(s)}
	return append(cmds, approvalCommands(s)...)
}
