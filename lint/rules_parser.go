package lint

import "github.com/skillscript/skillc/ast"

// parserRule documents an id the parser reports; it has no Run.
func parserRule(id string, sev ast.Severity, doc Doc) *Rule {
	return &Rule{ID: id, Severity: sev, Needs: NeedsSource, Origin: ByParser, Doc: doc}
}

func parserRules() []*Rule {
	return []*Rule{
		ruleParseError(),
		parserRule("indentation", ast.Error, Doc{
			Summary: "A tab in indentation, or a line at a depth that matches no open block.",
			Why:     "Blocks are defined by space indentation; a block's depth is set by its first line. A line at another depth would be silently re-parented, so it is an error instead.",
			Bad:     "t:\n    emit(text=\"a\")\n      emit(text=\"b\")\n",
			Good:    "t:\n    emit(text=\"a\")\n    emit(text=\"b\")\n",
		}),
		parserRule("invalid-conditional-syntax", ast.Error, Doc{
			Summary: "An `if`/`elif` condition outside the condition grammar (`&&`, `||`, arithmetic, bare words, a missing `:`), one that references no variable (`if 5 < 10:`), or one over the caps (4,096 bytes, nesting 64).",
			Why:     "Conditions compare (`== != < > <= >= in not in`) and combine (`and or not`, parentheses); computation belongs in tools. A condition without a `${...}` reference always has the same value.",
			Bad:     "if ${A} && ${B}:\n",
			Good:    "if ${A} and ${B}:\n",
		}),
		parserRule("single-equals", ast.Error, Doc{
			Summary: "`=` used in a condition; the fix rewrites it as `==`.",
			Why:     "A condition compares; there is no assignment inside a condition.",
			Bad:     "if ${VERDICT} = \"urgent\":\n",
			Good:    "if ${VERDICT} == \"urgent\":\n",
		}),
		parserRule("byte-order-mark", ast.Info, Doc{
			Summary: "The file starts with a UTF-8 byte order mark; the parser skips it and the fix removes it.",
			Why:     "Without the skip the mark would glue itself to the first line, so a `# Skill:` header there would silently become body text. Other tools may still trip over the mark.",
			Bad:     "\ufeff# Skill: report\n",
			Good:    "# Skill: report\n",
		}),
		parserRule("header-case", ast.Warning, Doc{
			Summary: "A known header key written in another case (`# status:`); the fix uses the canonical spelling.",
			Why:     "Header keys have one spelling so that every tool reads them the same way.",
			Bad:     "# status: Draft\n",
			Good:    "# Status: Draft\n",
		}),
		parserRule("unknown-header", ast.Info, Doc{
			Summary: "A column-0 `# Word:` line that is not a header but is close to one; it is treated as a comment.",
			Why:     "A misspelt header is silently ignored otherwise. The fix renames it to the header it resembles.",
			Bad:     "# Descripton: daily report\n",
			Good:    "# Description: daily report\n",
		}),
		parserRule("legacy-frontmatter-header", ast.Warning, Doc{
			Summary: "`# Delivery-context:`, the old name of `# Event-type:`.",
			Why:     "The header was renamed; the fix uses the new name.",
			Bad:     "# Delivery-context: ticket-911\n",
			Good:    "# Event-type: ticket-911\n",
		}),
		parserRule("space-separated-vars", ast.Warning, Doc{
			Summary: "A `# Vars:` name containing whitespace.",
			Why:     "Names cannot contain spaces; several names were probably meant, separated by commas.",
			Bad:     "# Vars: A B\n",
			Good:    "# Vars: A, B\n",
		}),
		parserRule("vars-space-separated", ast.Warning, Doc{
			Summary: "`# Vars: A=1 B=2`: declarations separated by spaces instead of commas.",
			Why:     "Commas separate declarations; otherwise the second one becomes part of the first default.",
			Bad:     "# Vars: A=1 B=2\n",
			Good:    "# Vars: A=1, B=2\n",
		}),
		parserRule("invalid-trigger", ast.Error, Doc{
			Summary: "A `# Triggers:` value that is not `cron: <5-field expression>` or `event: <name>`.",
			Why:     "A trigger that cannot be registered never fires.",
			Bad:     "# Triggers: cron: every morning\n",
			Good:    "# Triggers: cron: 0 8 * * *\n",
		}),
		parserRule("invalid-tests", ast.Error, Doc{
			Summary: "A `# Tests:` block that is not a YAML list of `name`/`given`/`expect` cases.",
			Why:     "`skillc test` runs these cases; a malformed block would be skipped silently.",
			Bad:     "# Tests:\n#   name: only one\n",
			Good:    "# Tests:\n#   - name: greets\n#     given: {WHO: Ada}\n#     expect: {output_contains: Ada}\n",
		}),
		{
			ID: "plugin-collision", Severity: ast.Info, Needs: NeedsNothing, Origin: Never,
			Doc: Doc{
				Summary: "Reserved for compatibility with the reference rule set; never reported.",
				Why:     "The reference implementation reserved this id for plugin name clashes. skillc has no plugins, so the id exists only so that configuration naming it stays valid.",
				Bad:     "",
				Good:    "",
			},
		},
		{
			ID: ruleUnusedSuppression, Severity: ast.Info, Needs: NeedsSource, Origin: ByEngine,
			Doc: Doc{
				Summary: "A `# skillc:ignore rule-id` comment that suppressed nothing, or names an unknown rule.",
				Why:     "Stale suppressions hide future problems on that line. Remove them once the diagnostic is gone.",
				Bad:     "emit(text=\"hi\")  # skillc:ignore undeclared-var — nothing to ignore\n",
				Good:    "emit(text=\"${X}\")  # skillc:ignore undeclared-var — bound by the caller\n",
			},
		},
		{
			ID: "invalid-connectors-config", Severity: ast.Error, Needs: NeedsConfig, Origin: ByConfig,
			Doc: Doc{
				Summary: "A problem in connectors.json other than an unknown class: malformed JSON, `allowed_tools` misplaced inside `config`, a missing field, an unset ${ENV} reference.",
				Why:     "A connector that cannot be built is missing at run time; skillc reports the exact place in the file.",
				Bad:     "{\"gh\": {\"class\": \"HttpMcpConnector\", \"config\": {\"url\": \"https://x\", \"allowed_tools\": [\"a\"]}}}\n",
				Good:    "{\"gh\": {\"class\": \"HttpMcpConnector\", \"config\": {\"url\": \"https://x\"}, \"allowed_tools\": [\"a\"]}}\n",
			},
		},
		{
			ID: "unknown-connector-class", Severity: ast.Error, Needs: NeedsConfig, Origin: ByConfig,
			Doc: Doc{
				Summary: "A connectors.json entry naming an unknown connector class.",
				Why:     "The runtime cannot construct the connector, so every call through it fails. The known classes are RemoteMcpConnector and HttpMcpConnector.",
				Bad:     "{\"gh\": {\"class\": \"HttpConnector\", \"config\": {\"url\": \"https://x\"}}}\n",
				Good:    "{\"gh\": {\"class\": \"HttpMcpConnector\", \"config\": {\"url\": \"https://x\"}}}\n",
			},
		},
		{
			ID: "connector-tools-unverified", Severity: ast.Info, Needs: NeedsConfig, Origin: ByConfig,
			Doc: Doc{
				Summary: "An MCP connector whose server did not answer `tools/list` when `skillc check` (or `skillc run`'s pre-check) warmed the tool cache; its calls are checked against an older cached list, or not schema-checked at all.",
				Why:     "The schema rules need each server's tool list. skillc asks each wired MCP server for it (introspection only, never a tool call) under a short timeout and caches the answer; a server that is down is reported once here, never as an error. `--offline` uses the cache only; `skillc tools refresh` retries.",
				Bad:     "{\"tickets\": {\"class\": \"RemoteMcpConnector\", \"config\": {\"command\": \"not-installed-mcp\"}}}\n",
				Good:    "{\"tickets\": {\"class\": \"RemoteMcpConnector\", \"config\": {\"command\": \"tickets-mcp\"}}}\n",
			},
		},
	}
}

// ruleParseError documents parse-error, which the parser reports for most
// syntax errors; the linter adds the one the parser leaves in the tree: a
// ${...} substitution whose inside does not parse (ast.Subst.Bad), which
// would otherwise only fail when the skill runs.
func ruleParseError() *Rule {
	return &Rule{
		ID: "parse-error", Severity: ast.Error, Needs: NeedsSource, Origin: ByParserLinter,
		Doc: Doc{
			Summary: "A syntax error that no more specific rule owns (bad header value, unterminated string, stray else:, a malformed `${...}` substitution, ...).",
			Why:     "The line cannot be understood; skillc keeps parsing the rest so every problem is reported at once.",
			Bad:     "# Status: Shipped\n",
			Good:    "# Status: Approved\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, s := range p.st.scan().badSubsts {
				p.Reportf(s, "malformed substitution %s: write ${NAME}, ${NAME.field} or ${NAME|filter:\"arg\"}", p.Text(s.Range))
			}
		},
	}
}
