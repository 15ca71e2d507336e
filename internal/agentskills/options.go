package agentskills

import (
	"fmt"
	"strings"
)

// Mode selects how strictly SKILL.md files are validated.
type Mode int

// The validation modes. Compat, the zero value, is what loaders use: it
// warns and loads wherever the client guide says so. Strict follows the
// specification text and the reference validator: most warnings become
// errors.
const (
	Compat Mode = iota
	Strict
)

// String returns "compat" or "strict".
func (m Mode) String() string {
	if m == Strict {
		return "strict"
	}
	return "compat"
}

// Options control parsing and validation. The zero value is compat mode
// with the default limits.
type Options struct {
	Mode Mode
	// Claude adds the Claude upload profile: no "anthropic"/"claude" in
	// names, no XML tags in names and descriptions.
	Claude bool
	// UnicodeNames accepts lowercase (or caseless) Unicode letters and
	// digits in names; by default names are ASCII.
	UnicodeNames bool
	// MaxSize caps the SKILL.md size in bytes (default 2 MiB).
	MaxSize int64
	// BodyLines and BodyTokens are the body budget (defaults 500 and 5000).
	BodyLines, BodyTokens int
}

// Default limits.
const (
	DefaultMaxSize    = 2 << 20
	DefaultBodyLines  = 500
	DefaultBodyTokens = 5000
	maxAliases        = 100
	maxNameRunes      = 64
	maxDescRunes      = 1024
	maxCompatRunes    = 500
)

func (o Options) maxSize() int64 {
	if o.MaxSize > 0 {
		return o.MaxSize
	}
	return DefaultMaxSize
}

func (o Options) bodyLines() int {
	if o.BodyLines > 0 {
		return o.BodyLines
	}
	return DefaultBodyLines
}

func (o Options) bodyTokens() int {
	if o.BodyTokens > 0 {
		return o.BodyTokens
	}
	return DefaultBodyTokens
}

// ParseProfile parses a --profile value: "strict", "compat" or "claude"
// (compat plus the claude profile; "strict,claude" combines them).
func ParseProfile(s string) (Options, error) {
	var o Options
	for _, p := range strings.Split(s, ",") {
		switch strings.TrimSpace(p) {
		case "", "compat":
		case "strict":
			o.Mode = Strict
		case "claude":
			o.Claude = true
		default:
			return o, fmt.Errorf("unknown profile %q: want strict, compat or claude", p)
		}
	}
	return o, nil
}
