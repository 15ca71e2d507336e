package eval

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/skillscript/skillc/ast"

	"github.com/skillscript/skillc/eval/value"
)

// contextWithDeadline bounds ctx at the instant at, measured on the
// runner's clock (now), so an injected clock still yields a real timer.
func contextWithDeadline(ctx context.Context, at, now time.Time) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, at.Sub(now))
}

// jsonValue encodes a runtime value with the value package's stable JSON.
func jsonValue(v any) []byte { return []byte(value.ToJSON(v)) }

// litValue returns a literal's text. It repairs a parser defect (reported
// upstream): literal bytes of non-ASCII text arrive as one rune per byte
// ("—" as "â\u0080\u0094"). When every rune is below U+0100 and, read back
// as bytes, they form valid UTF-8 with a multi-byte sequence, those bytes
// are the source text. Correctly decoded text never matches this: its
// Latin-1 runes are not valid UTF-8 as single bytes.
func litValue(l *ast.Lit) string {
	for i := range len(l.Value) {
		if l.Value[i] >= utf8.RuneSelf {
			return repairedLit(l.Value)
		}
	}
	return l.Value // inlined: ASCII text is returned as it is
}

// repairedLit is litValue of a literal with non-ASCII bytes.
func repairedLit(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r >= 0x100 {
			return s
		}
		b = append(b, byte(r))
	}
	if !utf8.Valid(b) {
		return s
	}
	return string(b)
}
