package lint

import "slices"

// Skillscript returns the skillscript rule set, in a stable order: the
// rules over the language itself, run by the engine's own indices, and
// the rules the parser reports. The other sets (SKILL.md, classification,
// approval signatures) live in lint/skillmd, lint/classify and
// lint/signature; lint/rulesets composes them for the callers. Each call
// builds fresh values.
func Skillscript() []*Rule {
	rs := []*Rule{
		// targets and the dependency graph
		ruleNoTargets(),
		ruleNoEntryTarget(),
		ruleMissingDefaultTarget(),
		ruleOrphanTarget(),
		ruleCircularDependency(),
		ruleMissingDependency(),
		ruleDuplicateTarget(),
		// variables and references
		ruleUndeclaredVar(),
		ruleUnsetTemplateVar(),
		ruleUnknownReturnsRef(),
		ruleReservedKeyword(),
		ruleNumericSubscript(),
		ruleTranscriptFootgun(),
		ruleDeprecatedSubstitutionShape(),
		// filters
		ruleUnknownFilter(),
		ruleUnquotedFilterArg(),
		ruleFilterArity(),
		ruleFilterArgKind(),
		ruleUnparsedJSONFieldAccess(),
		ruleRemoteResultNeedsParse(),
		// op grammar and op surfaces
		ruleMalformedOpGrammar(),
		ruleMalformedCall(),
		ruleUnknownRuntimeOp(),
		ruleConnectorAsTool(),
		ruleColonKwargSyntax(),
		ruleDeprecatedQuestion(),
		ruleUnknownLLMArg(),
		ruleUnknownDataReadArg(),
		ruleUnknownFileEncoding(),
		ruleDeprecatedAddressedTo(),
		ruleUnquotedSubstitutionInKwarg(),
		ruleSetJSONLiteralAdvisory(),
		ruleUnboundedNoDeadline(),
		// accumulators and iteration
		ruleUninitializedAppend(),
		ruleForeachLocalAccumulator(),
		ruleAppendToNonList(),
		ruleAppendStructuredToString(),
		ruleObjectIterationAdvisory(),
		// secrets and credentials
		ruleSecretUseOnly(),
		ruleSecretUndeclared(),
		ruleSecretDynamicName(),
		ruleCredentialInArgs(),
		// shell
		ruleUnsafeShellOp(),
		ruleUnsafeShellDisabled(),
		ruleShellBinaryNotAllowed(),
		ruleShellSubstInArg(),
		ruleShellFullShell(),
		ruleFSPathNotAllowed(),
		ruleShellQuotedVarInCommand(),
		ruleUnsafeShellAmbiguousSubst(),
		ruleUnsafeShellUnescapedSubst(),
		// mutation gate
		ruleUnconfirmedMutation(),
		ruleApprovalNotLiteral(),
		// status and output
		ruleStatusDisabled(),
		ruleDraftWithTrigger(),
		ruleUnusedAugmentingHeader(),
		ruleOutputAgentTargetNoEmit(),
		ruleOutputAgentTargetNoConnector(),
		ruleAddressRoutedWake(),
		ruleBodyTemplateDetected(),
		ruleEmitWithTemplate(),
		ruleTemplateLooksLikeTarget(),
		ruleMultipleTemplateRegions(),
		// connectors, tools and models
		ruleUnknownConnector(),
		ruleUnwiredPrimaryConnector(),
		ruleDisallowedTool(),
		ruleUnknownToolOnConnector(),
		ruleUnverifiedQualifiedTool(),
		ruleUnknownConnectorArg(),
		ruleMissingRequiredConnectorArg(),
		ruleUnknownResultField(),
		ruleResultTypeMismatch(),
		ruleForeachOverText(),
		ruleUnknownLLMModel(),
		ruleUnknownCapability(),
		// the skill store
		ruleUnknownSkillReference(),
		ruleUnknownTemplateReference(),
		ruleDisabledSkillReference(),
		ruleReferenceToDisabledSkill(),
		ruleUnexportedFinalVarAccess(),
		ruleSkillNameCollision(),
		ruleDuplicateSkillName(),
		ruleMissingSkillstoreForDataRef(),
	}
	return slices.Concat(rs, parserRules())
}
