package lang

import "slices"

// controlWords are the reserved control-flow keywords.
func controlWords() []string {
	return []string{"default", "needs", "if", "elif", "else", "foreach", "in", "not", "unsafe"}
}

// futureWords are reserved for grammar not implemented yet.
func futureWords() []string {
	return []string{"while", "for", "match", "try", "catch", "return"}
}

// ReservedWords returns the reserved identifiers: the intrinsic op names,
// the control-flow keywords and the future-reserved words, in that order.
// They cannot name a variable, target, iterator, return or skill.
func ReservedWords() []string { return reservedWords(theCatalog().ops) }

// reservedWords lists the reserved words given the catalogued ops.
func reservedWords(ops []OpSpec) []string {
	return slices.Concat(names(ops, Intrinsic), controlWords(), futureWords())
}

// Reserved reports whether word is reserved. The match is case-sensitive:
// "if" is reserved, "If" is not.
func Reserved(word string) bool { return theCatalog().reserved[word] }

// Statement documents a statement keyword offered at the start of a body
// line.
type Statement struct {
	Label   string
	Snippet string // LSP snippet syntax; "\\$" is a literal dollar
	Doc     string
	Binding Binding // BindName for $set/$append, "" for control flow
}

// Statements returns the statement keywords: the mutation statements
// ($set, $append), then the block keywords.
func Statements() []Statement {
	return []Statement{
		{"$set", "\\$set ${1:NAME} = ${2:value}", "Binds a variable (with `${}` interpolation at bind time).", BindName},
		{"$append", "\\$append ${1:NAME} ${2:value}", "Appends to a list or string accumulator initialised in an enclosing scope.", BindName},
		{"foreach", "foreach ${1:ITEM} in \\${${2:LIST}}:\n\t$0", "Iterates over a list; bindings inside are loop-local.", ""},
		{"if", "if ${1:condition}:\n\t$0", "Conditional block (`==`, `!=`, `<`, `in`, `and`, `or`, `not`).", ""},
		{"needs", "needs: ${1:target}", "Declares targets that run before this one.", ""},
		{"else", "else:\n\t$0", "Error handler of the target, or the else branch of an if.", ""},
	}
}

// AmbientDoc documents an ambient reference (NOW, USER, ...), or returns ""
// for other names.
func AmbientDoc(name string) string {
	switch name {
	case "NOW":
		return "The current time."
	case "USER":
		return "The invoking user (`${USER.login}`, ...)."
	case "SESSION_CONTEXT":
		return "The calling session's context."
	case "TRIGGER_TYPE":
		return "What started the run (`cron`, `event`, `manual`, ...)."
	case "TRIGGER_PAYLOAD":
		return "The payload of the trigger."
	case "EVENT":
		return "The trigger event (`${EVENT.fired_at_unix}`, ...)."
	case "ERROR_CONTEXT":
		return "Inside `else:`: the error that routed here."
	}
	return ""
}
