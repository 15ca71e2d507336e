package lang

import "slices"

// envelopeFields are the top-level keys of a skill's result envelope, which
// a caller's "execute_skill(...) -> R" always carries: skillc's result
// JSON (eval.Result; TestEnvelopeFieldsMatchResult in eval keeps them
// equal) plus skill_name, the reference runtime's name for the skill.
var envelopeFields = []string{
	"agent_delivery_receipts", "deadline_exceeded", "else_executed", "emissions", "errors",
	"fallbacks", "final_vars", "mechanical", "notices", "outputs", "skill", "skill_name",
	"status", "target_order", "transcript", "uncertain_effects",
}

// EnvelopeFields returns the result envelope's top-level keys, sorted.
func EnvelopeFields() []string { return slices.Clone(envelopeFields) }

// IsEnvelopeField reports whether name is a key of the result envelope; a
// "# Returns:" name equal to one would be shadowed by it.
func IsEnvelopeField(name string) bool {
	_, found := slices.BinarySearch(envelopeFields, name)
	return found
}
