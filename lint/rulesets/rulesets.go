// Package rulesets composes the linter's rule sets for the callers: the
// skillscript set of the engine (lint.Skillscript), the approval
// signatures (lint/signature), the classification rules (lint/classify)
// and the SKILL.md rules (lint/skillmd). A caller that wants fewer rules
// composes its own registry with lint.NewRegistry.
package rulesets

import (
	"sync"

	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/classify"
	"github.com/skillscript/skillc/lint/signature"
	"github.com/skillscript/skillc/lint/skillmd"
)

// All returns the registry of every rule set, built once per process;
// its rules are shared read-only by every run.
var All = sync.OnceValue(func() *lint.Registry {
	return lint.NewRegistry(lint.Skillscript(), signature.Rules(), classify.Rules(), skillmd.Rules())
})
