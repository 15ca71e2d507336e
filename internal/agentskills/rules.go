package agentskills

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// The rule ids of SKILL.md diagnostics. They share the project's rule
// namespace (skillc explain, skillc rules, docs/rules.md, suppressions,
// severity overrides) and all start with "skillmd-".
const (
	RuleNotText           = "skillmd-not-text"
	RuleTooLarge          = "skillmd-too-large"
	RuleFileName          = "skillmd-file-name"
	RuleSymlink           = "skillmd-symlink"
	RuleEncoding          = "skillmd-encoding"
	RuleFrontmatter       = "skillmd-frontmatter"
	RuleYAML              = "skillmd-yaml"
	RuleUnquotedColon     = "skillmd-unquoted-colon"
	RuleDuplicateKey      = "skillmd-duplicate-key"
	RuleAlias             = "skillmd-alias"
	RuleFlowStyle         = "skillmd-flow-style"
	RuleUnknownKey        = "skillmd-unknown-key"
	RuleFieldType         = "skillmd-field-type"
	RuleMissingName       = "skillmd-missing-name"
	RuleNameFormat        = "skillmd-name-format"
	RuleNameLength        = "skillmd-name-length"
	RuleNameDir           = "skillmd-name-dir-mismatch"
	RuleMissingDesc       = "skillmd-missing-description"
	RuleDescLength        = "skillmd-description-length"
	RuleCompatibility     = "skillmd-compatibility-length"
	RuleMetadata          = "skillmd-metadata"
	RuleMetadataValue     = "skillmd-metadata-value"
	RuleAllowedTools      = "skillmd-allowed-tools"
	RuleClaudeProfile     = "skillmd-claude-profile"
	RuleBodyBudget        = "skillmd-body-budget"
	RuleBrokenLink        = "skillmd-broken-link"
	RuleAbsolutePath      = "skillmd-absolute-path"
	RuleLinkOutside       = "skillmd-link-outside"
	RuleNameCollision     = "skillmd-name-collision"
	RuleShadowed          = "skillmd-shadowed"
	RuleScanLimit         = "skillmd-scan-limit"
	RuleUnsupportedTagged = "skillmd-yaml-tag"

	RuleClassNested        = "skillmd-classification-nested"
	RuleClassValue         = "skillmd-classification-value"
	RuleClassSidecarDirect = "skillmd-classification-sidecar-direct"
	RuleClassAttachTargets = "skillmd-classification-attach-targets"
	RuleClassDirectTargets = "skillmd-classification-direct-targets"
)

// RuleDoc documents one SKILL.md rule. Compat and Strict are the
// severities in the two validation modes (0: not reported in that mode);
// ClaudeOnly rules fire only with the claude profile. Registry rules are
// reported by the skill registry (internal/host/registry), not by Parse.
type RuleDoc struct {
	ID         string
	Compat     ast.Severity
	Strict     ast.Severity
	ClaudeOnly bool
	Registry   bool
	Summary    string
	Why        string
	Bad        string
	Good       string
}

// Severity returns the default severity of the rule in mode m.
func (r RuleDoc) Severity(m Mode) ast.Severity {
	if m == Strict {
		return r.Strict
	}
	return r.Compat
}

// Rules returns the documentation of every SKILL.md rule, in a stable
// order. Each call builds a fresh slice.
func Rules() []RuleDoc {
	return slices.Concat(fileRules(), fieldRules(), classRules(), bodyRules(), registryRules())
}

// classRules are the gateway classification rules of a package: the same
// checks as the classification-* rules of skillscripts
// (internal/classification), read from the flattened metadata keys.
func classRules() []RuleDoc {
	const head = "---\nname: audit-run\ndescription: Audits a finished run for policy violations.\nmetadata:\n"
	return []RuleDoc{
		{ID: RuleClassNested, Compat: ast.Warning, Strict: ast.Error,
			Summary: "The gateway classification written as a nested `classification:` map inside `metadata`.",
			Why:     "The specification makes metadata a map of strings to strings, so other runtimes reject the nested form. Compat mode reads it with this warning; write flattened keys (`classification.role: sidecar`).",
			Bad:     head + "  classification:\n    role: sidecar\n    invocation: attach\n    effect_mode: read_only\n    attach_targets: run\n---\n",
			Good:    head + "  classification.role: sidecar\n  classification.invocation: attach\n  classification.effect_mode: read_only\n  classification.attach_targets: run\n---\n",
		},
		{ID: RuleClassValue, Compat: ast.Error, Strict: ast.Error,
			Summary: "A `classification.*` metadata key or value outside the gateway's vocabulary (with the closest valid one), or a classification without role, invocation or effect_mode.",
			Why:     "The gateway decides from these values whether a skill is recommended, may be called directly or attached; a misspelt value silently changes that.",
			Bad:     head + "  classification.role: sidecr\n  classification.invocation: attach\n  classification.effect_mode: read_only\n  classification.attach_targets: run\n---\n",
			Good:    head + "  classification.role: sidecar\n  classification.invocation: attach\n  classification.effect_mode: read_only\n  classification.attach_targets: run\n---\n",
		},
		{ID: RuleClassSidecarDirect, Compat: ast.Error, Strict: ast.Error,
			Summary: "`classification.role: sidecar` with `classification.invocation: direct`.",
			Why:     "A sidecar needs a live target to observe or control; the gateway never offers it for direct calls. Use attach or both.",
			Bad:     head + "  classification.role: sidecar\n  classification.invocation: direct\n  classification.effect_mode: read_only\n---\n",
			Good:    head + "  classification.role: sidecar\n  classification.invocation: attach\n  classification.effect_mode: read_only\n  classification.attach_targets: run\n---\n",
		},
		{ID: RuleClassAttachTargets, Compat: ast.Error, Strict: ast.Error,
			Summary: "`classification.invocation` attach or both without `classification.attach_targets`, or with a target repeated or outside task, run, output, transcript, artifact.",
			Why:     "skills_attach checks the requested target type against this space-separated list before anything runs.",
			Bad:     head + "  classification.role: sidecar\n  classification.invocation: attach\n  classification.effect_mode: read_only\n---\n",
			Good:    head + "  classification.role: sidecar\n  classification.invocation: attach\n  classification.effect_mode: read_only\n  classification.attach_targets: run output\n---\n",
		},
		{ID: RuleClassDirectTargets, Compat: ast.Error, Strict: ast.Error,
			Summary: "`classification.invocation: direct` with `classification.attach_targets`.",
			Why:     "A direct-only skill cannot be attached; remove the targets or use invocation both.",
			Bad:     head + "  classification.role: procedure\n  classification.invocation: direct\n  classification.effect_mode: read_only\n  classification.attach_targets: run\n---\n",
			Good:    head + "  classification.role: procedure\n  classification.invocation: both\n  classification.effect_mode: read_only\n  classification.attach_targets: run\n---\n",
		},
	}
}

func fileRules() []RuleDoc {
	return []RuleDoc{
		{ID: RuleNotText, Compat: ast.Error, Strict: ast.Error,
			Summary: "A SKILL.md that is not UTF-8 text (invalid bytes or NUL characters).",
			Why:     "SKILL.md is Markdown read by a model; a binary file cannot be parsed. The package is not loaded.",
			Bad:     "(a file with NUL bytes)\n", Good: "---\nname: report\ndescription: Writes the weekly report.\n---\n"},
		{ID: RuleTooLarge, Compat: ast.Error, Strict: ast.Error,
			Summary: "A SKILL.md larger than the size cap (2 MiB by default); it is not read.",
			Why:     "Instructions are injected into a model's context; a multi-megabyte file is a mistake or an attack. Move material to references/ files read on demand.",
			Bad:     "report/SKILL.md: 3 MiB of instructions in one file\n",
			Good:    "report/SKILL.md: a short body that points to references/guide.md\n",
		},
		{ID: RuleFileName, Compat: ast.Warning, Strict: ast.Error,
			Summary: "The package file is named `skill.md` (or another case) instead of `SKILL.md`.",
			Why:     "The specification names the file `SKILL.md`, case-sensitively; other runtimes will not find a differently cased file. Compat mode loads it with this warning.",
			Bad:     "report/skill.md\n",
			Good:    "report/SKILL.md\n",
		},
		{ID: RuleSymlink, Compat: ast.Error, Strict: ast.Error,
			Summary: "`SKILL.md` (or, reported by the registry, another package file) is a symbolic link that leaves the package directory or cannot be resolved (a loop).",
			Why:     "The digest and approval of a package cover the files inside its directory; content pulled in from elsewhere through a link escapes both. A linked SKILL.md is not loaded; a linked resource is left out of the manifest. Copy the file into the package instead.",
			Bad:     "report/SKILL.md -> ../../shared/SKILL.md\n",
			Good:    "report/SKILL.md (a regular file inside the package)\n",
		},
		{ID: RuleEncoding, Compat: ast.Info, Strict: ast.Warning,
			Summary: "A byte-order mark or CRLF line endings; both are accepted and normalised.",
			Why:     "Several validators match `---\\n` literally and reject such files; plain UTF-8 with LF line endings works everywhere. The fix removes the byte-order mark.",
			Bad:     "(byte-order mark)---   (every line ending in CR LF)\nname: report\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleFrontmatter, Compat: ast.Error, Strict: ast.Error,
			Summary: "The file does not start with a `---` line, or the frontmatter has no closing `---` line.",
			Why:     "The frontmatter is the YAML between a first line `---` and the next line that is exactly `---`; without it the skill has no name or description and is not loaded.",
			Bad:     "name: report\ndescription: Writes the weekly report.\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleYAML, Compat: ast.Error, Strict: ast.Error,
			Summary: "The frontmatter is not valid YAML, or is not a mapping of keys to values.",
			Why:     "The skill cannot be read; it is not loaded. Quote values that contain `: ` or start with a YAML indicator.",
			Bad:     "---\nname: report\ndescription: [unclosed\n---\n",
			Good:    "---\nname: report\ndescription: \"[draft] weekly report\"\n---\n",
		},
		{ID: RuleUnquotedColon, Compat: ast.Warning, Strict: ast.Error,
			Summary: "An unquoted value containing `: ` (`description: Use when: ...`), which is not valid YAML; compat mode reads it as quoted.",
			Why:     "Strict YAML parsers reject the file. The fix quotes the value.",
			Bad:     "---\nname: report\ndescription: Use when: the user asks for a report\n---\n",
			Good:    "---\nname: report\ndescription: \"Use when: the user asks for a report\"\n---\n",
		},
		{ID: RuleDuplicateKey, Compat: ast.Error, Strict: ast.Error,
			Summary: "A key appears twice in the same frontmatter mapping.",
			Why:     "Parsers disagree on which value wins (the first, the last, or an error), so the skill would mean different things in different runtimes.",
			Bad:     "---\nname: report\nname: weekly-report\ndescription: Writes the weekly report.\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleAlias, Compat: ast.Warning, Strict: ast.Error,
			Summary: "A YAML anchor or alias (`&a`, `*a`) in the frontmatter; more than 100 aliases is always an error.",
			Why:     "The reference validator reads a YAML subset without anchors or aliases, and aliases are how \"billion laughs\" documents explode in size. Write the value out.",
			Bad:     "---\nname: &n report\ndescription: *n\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleUnsupportedTagged, Compat: ast.Info, Strict: ast.Error,
			Summary: "An explicit YAML tag (`!!str`, `!custom`) in the frontmatter.",
			Why:     "The reference validator reads a YAML subset without tags; every frontmatter value is text anyway.",
			Bad:     "---\nname: !!str report\ndescription: Writes the weekly report.\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleFlowStyle, Compat: ast.Info, Strict: ast.Error,
			Summary: "A flow-style list or map (`[a, b]`, `{k: v}`) in the frontmatter.",
			Why:     "The reference validator's YAML subset has block style only, so it rejects the file. Write the list or map in block style.",
			Bad:     "---\nname: report\ndescription: Writes the weekly report.\nmetadata: {team: finance}\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\nmetadata:\n  team: finance\n---\n",
		},
	}
}

// claudeKeyList renders the Claude Code keys outside the specification
// for rule documentation.
func claudeKeyList() string {
	var out []string
	spec := SpecKeys()
	for _, k := range ClaudeCodeKeys() {
		if !contains(spec, k) {
			out = append(out, "`"+k+"`")
		}
	}
	return fmt.Sprintf("%d extra keys (%s)", len(out), strings.Join(out, ", "))
}

func fieldRules() []RuleDoc {
	return []RuleDoc{
		{ID: RuleUnknownKey, Compat: ast.Warning, Strict: ast.Error,
			Summary: "A top-level frontmatter key outside name, description, license, compatibility, metadata and allowed-tools.",
			Why: "The specification defines six keys and the reference validator rejects others. Compat mode keeps the extra keys in the raw frontmatter and warns; strict mode rejects them; put your own data under `metadata`. " +
				"The claude profile (`--profile claude`, also combined as `strict,claude`) targets Claude Code, which reads " + claudeKeyList() +
				": with that profile these keys are accepted without a diagnostic, in either mode; any other extra key is still reported.",
			Bad:  "---\nname: report\ndescription: Writes the weekly report.\nowner: finance\n---\n",
			Good: "---\nname: report\ndescription: Writes the weekly report.\nmetadata:\n  owner: finance\n---\n",
		},
		{ID: RuleFieldType, Compat: ast.Error, Strict: ast.Error,
			Summary: "name, description, compatibility or license is a list or a map instead of text (license: a warning when not a string).",
			Why:     "These fields are single strings; a structured value cannot be shown to a model or compared.",
			Bad:     "---\nname: report\ndescription:\n  - writes reports\n---\n",
			Good:    "---\nname: report\ndescription: Writes reports.\n---\n",
		},
		{ID: RuleMissingName, Compat: ast.Error, Strict: ast.Error,
			Summary: "The frontmatter has no `name`, or it is empty.",
			Why:     "The name identifies the skill to the model and to tools; without it the skill is not loaded.",
			Bad:     "---\ndescription: Writes the weekly report.\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleNameFormat, Compat: ast.Error, Strict: ast.Error,
			Summary: "A name outside lowercase letters, digits and single inner hyphens (`^[a-z0-9]+(-[a-z0-9]+)*$`); the fix rewrites it.",
			Why:     "Names become tool enum values and `skill://` URI segments. Unicode lowercase letters are accepted only when unicode names are enabled (the specification is unsettled on them).",
			Bad:     "---\nname: Weekly_Report\ndescription: Writes the weekly report.\n---\n",
			Good:    "---\nname: weekly-report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleNameLength, Compat: ast.Error, Strict: ast.Error,
			Summary: "A name longer than 64 characters (counted in characters after NFKC normalisation, not bytes).",
			Why:     "The specification limits names to 64 characters.",
			Bad:     "---\nname: quarterly-financial-report-writer-for-the-finance-team-and-its-auditors\ndescription: Writes the quarterly report.\n---\n",
			Good:    "---\nname: quarterly-report\ndescription: Writes the quarterly report.\n---\n",
		},
		{ID: RuleNameDir, Compat: ast.Warning, Strict: ast.Error,
			Summary: "The name differs from the package directory name (compared after NFKC normalisation, case-sensitively).",
			Why:     "The specification requires them to match and MCP servers address a skill by a URI whose last segment is the name. Compat mode loads the skill under its frontmatter name. The fix uses the directory name when it is a valid name.",
			Bad:     "weekly-report/SKILL.md:\n---\nname: report\n---\n",
			Good:    "weekly-report/SKILL.md:\n---\nname: weekly-report\n---\n",
		},
		{ID: RuleMissingDesc, Compat: ast.Error, Strict: ast.Error,
			Summary: "The frontmatter has no `description`, or it is empty or blank; the skill is not loaded.",
			Why:     "The description is what a model reads to decide when to use the skill; a skill without one can never be chosen. Say what it does and when to use it.",
			Bad:     "---\nname: report\ndescription: \"\"\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly finance report. Use when asked for the weekly numbers.\n---\n",
		},
		{ID: RuleDescLength, Compat: ast.Warning, Strict: ast.Error,
			Summary: "A description longer than 1024 characters.",
			Why:     "The specification limits descriptions to 1024 characters; every description is sent to the model on every turn. Move detail into the body.",
			Bad:     "---\nname: report\ndescription: (1,500 characters of prose)\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\n---\n",
		},
		{ID: RuleCompatibility, Compat: ast.Warning, Strict: ast.Error,
			Summary: "A `compatibility` value that is empty or longer than 500 characters.",
			Why:     "The specification allows 1 to 500 characters; leave the key out when there is nothing to say.",
			Bad:     "---\nname: report\ndescription: Writes the weekly report.\ncompatibility: \"\"\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\ncompatibility: Needs python3 and network access.\n---\n",
		},
		{ID: RuleMetadata, Compat: ast.Warning, Strict: ast.Error,
			Summary: "`metadata` that is not a map of strings to strings (a list, a nested map, a null), or a key with the reserved prefix `io.modelcontextprotocol/`.",
			Why:     "Metadata is a flat string map; nested values are read differently by each runtime. Flatten nested keys (`classification.role: sidecar`).",
			Bad:     "---\nname: report\ndescription: Writes the weekly report.\nmetadata:\n  owner:\n    team: finance\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\nmetadata:\n  owner.team: finance\n---\n",
		},
		{ID: RuleMetadataValue, Compat: ast.Warning, Strict: ast.Warning,
			Summary: "A metadata value that is a number or boolean; it is read as text. The fix quotes it.",
			Why:     "Metadata values are strings; `version: 1.10` would otherwise read as the number 1.1 in typed YAML parsers.",
			Bad:     "---\nname: report\ndescription: Writes the weekly report.\nmetadata:\n  version: 1.10\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\nmetadata:\n  version: \"1.10\"\n---\n",
		},
		{ID: RuleAllowedTools, Compat: ast.Warning, Strict: ast.Error,
			Summary: "`allowed-tools` written as a YAML list or with commas instead of one space-separated string.",
			Why:     "The specification defines one space-separated string (`Bash(git:*) Read`). skillc accepts both forms; it is advisory and never grants permissions.",
			Bad:     "---\nname: report\ndescription: Writes the weekly report.\nallowed-tools:\n  - Read\n  - Grep\n---\n",
			Good:    "---\nname: report\ndescription: Writes the weekly report.\nallowed-tools: Read Grep\n---\n",
		},
		{ID: RuleClaudeProfile, Compat: ast.Error, Strict: ast.Error, ClaudeOnly: true,
			Summary: "With the claude profile: a name containing \"anthropic\" or \"claude\", or a name or description containing `<` or `>` (XML tags).",
			Why:     "The Claude skill upload checks refuse these. Reported only with the claude profile, which also accepts Claude Code's " + claudeKeyList() + " without a skillmd-unknown-key diagnostic.",
			Bad:     "---\nname: claude-helper\ndescription: Use <b>always</b>.\n---\n",
			Good:    "---\nname: writing-helper\ndescription: Use when drafting prose.\n---\n",
		},
	}
}

func bodyRules() []RuleDoc {
	return []RuleDoc{
		{ID: RuleBodyBudget, Compat: ast.Warning, Strict: ast.Warning,
			Summary: "A body longer than 500 lines or about 5,000 tokens (estimated as bytes / 4).",
			Why:     "The body is injected into the model's context whenever the skill is active. Move reference material into files under references/ that the model reads on demand.",
			Bad:     "(a SKILL.md body of 2,000 lines with every table inline)\n",
			Good:    "Read [the tables](references/tables.md) when you need them.\n",
		},
		{ID: RuleBrokenLink, Compat: ast.Warning, Strict: ast.Warning,
			Summary: "A relative Markdown link to a file that does not exist in the package.",
			Why:     "The model will try to read the file and fail. Links are relative to the package root.",
			Bad:     "See [the guide](references/guide.md).   (no such file)\n",
			Good:    "See [the guide](references/GUIDE.md).\n",
		},
		{ID: RuleAbsolutePath, Compat: ast.Warning, Strict: ast.Warning,
			Summary: "A link to an absolute path (`/home/...`, `C:\\...`, `file://`).",
			Why:     "Absolute paths only exist on the author's machine and are refused by skills_read. Link relative to the package root. Only targets that look like file-system paths count: two or more segments (`/usr/local/bin/x`), a file extension (`/notes.md`) or a well-known root (`/tmp`); slash commands (`/vendor:skill`, `/review`) and scheme-relative URLs (`//cdn.example/x`) are not paths.",
			Bad:     "Read [the template](/home/ada/skills/report/assets/t.md).\n",
			Good:    "Read [the template](assets/t.md).\n",
		},
		{ID: RuleLinkOutside, Compat: ast.Warning, Strict: ast.Warning,
			Summary: "A relative link that leaves the package directory (`../other/file.md`).",
			Why:     "Files outside the package are not part of its manifest or digest and skills_read refuses them. Copy the file into the package.",
			Bad:     "See [shared notes](../shared/notes.md).\n",
			Good:    "See [notes](references/notes.md).\n",
		},
	}
}

func registryRules() []RuleDoc {
	return []RuleDoc{
		{ID: RuleNameCollision, Compat: ast.Error, Strict: ast.Error, Registry: true,
			Summary: "A SKILL.md package and a `.skill.md` skillscript in the same origin claim the same name.",
			Why:     "Both kinds share one name space seen by the model; neither silently wins. Rename one of them.",
			Bad:     "skills/report/SKILL.md      (name: report)\nskills/report.skill.md      (# Skill: report)\n",
			Good:    "skills/report/SKILL.md      (name: report)\nskills/report-run.skill.md  (# Skill: report-run)\n",
		},
		{ID: RuleShadowed, Compat: ast.Info, Strict: ast.Info, Registry: true,
			Summary: "A skill hidden by a same-named skill from a higher-precedence origin (project > user > configured roots > MCP).",
			Why:     "Only one skill per name is visible to the model; the shadowed one stays reachable through its origin-qualified id.",
			Bad:     "<project>/.agents/skills/report/SKILL.md\n~/.agents/skills/report/SKILL.md   (hidden)\n",
			Good:    "<project>/.agents/skills/report/SKILL.md\n~/.agents/skills/team-report/SKILL.md\n",
		},
		{ID: RuleScanLimit, Compat: ast.Warning, Strict: ast.Warning, Registry: true,
			Summary: "A skill root was not scanned completely: the depth or directory limit was hit, or a symlink loop was found.",
			Why:     "Scans are bounded so that a huge or looping tree cannot stall the registry; move skills closer to the root or raise the limits.",
			Bad:     "skills/a/b/c/d/e/f/g/h/report/SKILL.md   (deeper than the scan depth)\n",
			Good:    "skills/report/SKILL.md\n",
		},
	}
}

// ruleSeverities returns the severity of every rule in mode m with the
// given profile, for Parse's reporter.
func ruleSeverities(m Mode, claude bool) map[string]ast.Severity {
	out := map[string]ast.Severity{}
	for _, r := range Rules() {
		if r.ClaudeOnly && !claude {
			continue
		}
		out[r.ID] = r.Severity(m)
	}
	return out
}
