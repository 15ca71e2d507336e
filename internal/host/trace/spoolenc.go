package trace

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendSpoolLine appends the JSON of l and its newline to dst: the same
// bytes json.NewEncoder(w).Encode(l) writes (issue 25: the trace write of
// skillc run). encoding/json built its reflection encoders for spoolLine,
// Run, Op and time.Time on every process's first record — about a third
// of a millisecond, most of the trace write of a small run — and copied
// the skill's source through a growing buffer. The fields a record always
// has are written here; the outcome lists (uncertain effects, errors,
// fallbacks, deliveries, tool calls) and non-empty inputs, which a clean
// run does not have, still go through encoding/json. TestSpoolEncoding
// pins the bytes against encoding/json.
func appendSpoolLine(dst []byte, l spoolLine) ([]byte, error) {
	var err error
	dst = append(dst, '{')
	sep := false
	field := func(name string) {
		if sep {
			dst = append(dst, ',')
		}
		sep = true
		dst = append(dst, '"')
		dst = append(dst, name...)
		dst = append(dst, '"', ':')
	}
	if l.Run != nil {
		field("run")
		if dst, err = appendRun(dst, l.Run); err != nil {
			return nil, err
		}
	}
	if l.Source != "" {
		field("source")
		dst = appendJSONString(dst, l.Source)
	}
	if l.Finish != nil {
		field("finish")
		if dst, err = appendRun(dst, l.Finish); err != nil {
			return nil, err
		}
	}
	if len(l.Calls) > 0 {
		field("calls")
		if dst, err = appendMarshal(dst, l.Calls); err != nil {
			return nil, err
		}
	}
	if l.Abort != "" {
		field("abort")
		dst = appendJSONString(dst, l.Abort)
	}
	if l.AbortAt != 0 {
		field("abort_at_ms")
		dst = strconv.AppendInt(dst, l.AbortAt, 10)
	}
	return append(dst, '}', '\n'), nil
}

// appendRun appends the JSON object of r, its fields in Run's order with
// Run's tags (omitempty where the tag says so).
func appendRun(dst []byte, r *Run) ([]byte, error) {
	var err error
	dst = append(dst, `{"trace_id":`...)
	dst = appendJSONString(dst, r.ID)
	dst = append(dst, `,"skill":`...)
	dst = appendJSONString(dst, r.Skill)
	dst = append(dst, `,"content_hash":`...)
	dst = appendJSONString(dst, r.ContentHash)
	dst = append(dst, `,"trigger_kind":`...)
	dst = appendJSONString(dst, r.Trigger)
	if r.TriggerName != "" {
		dst = append(dst, `,"trigger_name":`...)
		dst = appendJSONString(dst, r.TriggerName)
	}
	if r.Caller != "" {
		dst = append(dst, `,"caller_agent_id":`...)
		dst = appendJSONString(dst, r.Caller)
	}
	dst = append(dst, `,"inputs":`...)
	switch {
	case r.Inputs == nil:
		dst = append(dst, "null"...)
	case len(r.Inputs) == 0:
		dst = append(dst, "{}"...)
	default:
		if dst, err = appendMarshal(dst, r.Inputs); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `,"mechanical":`...)
	dst = strconv.AppendBool(dst, r.Mechanical)
	dst = append(dst, `,"status":`...)
	dst = appendJSONString(dst, r.Status)
	dst = append(dst, `,"started_at":`...)
	if dst, err = appendTime(dst, r.StartedAt); err != nil {
		return nil, err
	}
	if r.FinishedAt != nil {
		dst = append(dst, `,"finished_at":`...)
		if dst, err = appendTime(dst, *r.FinishedAt); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `,"duration_ms":`...)
	dst = strconv.AppendInt(dst, r.DurationMS, 10)
	dst = append(dst, `,"deadline_exceeded":`...)
	dst = strconv.AppendBool(dst, r.DeadlineExceeded)
	dst = append(dst, `,"uncertain_effects":`...)
	if dst, err = appendList(dst, r.UncertainEffects == nil, len(r.UncertainEffects), r.UncertainEffects); err != nil {
		return nil, err
	}
	dst = append(dst, `,"errors":`...)
	if dst, err = appendList(dst, r.Errors == nil, len(r.Errors), r.Errors); err != nil {
		return nil, err
	}
	dst = append(dst, `,"fallbacks":`...)
	if dst, err = appendList(dst, r.Fallbacks == nil, len(r.Fallbacks), r.Fallbacks); err != nil {
		return nil, err
	}
	dst = append(dst, `,"deliveries":`...)
	if dst, err = appendList(dst, r.Deliveries == nil, len(r.Deliveries), r.Deliveries); err != nil {
		return nil, err
	}
	dst = append(dst, `,"output":`...)
	dst = appendJSONString(dst, r.Output)
	if r.AbortReason != "" {
		dst = append(dst, `,"abort_reason":`...)
		dst = appendJSONString(dst, r.AbortReason)
	}
	if r.Host != "" {
		dst = append(dst, `,"host":`...)
		dst = appendJSONString(dst, r.Host)
	}
	if len(r.Ops) > 0 {
		dst = append(dst, `,"ops":[`...)
		for i := range r.Ops {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendOp(dst, &r.Ops[i]); err != nil {
				return nil, err
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), nil
}

// appendOp appends the JSON object of o, as encoding/json writes it.
func appendOp(dst []byte, o *Op) ([]byte, error) {
	var err error
	dst = append(dst, `{"depth":`...)
	dst = strconv.AppendInt(dst, int64(o.Depth), 10)
	dst = append(dst, `,"skill":`...)
	dst = appendJSONString(dst, o.Skill)
	dst = append(dst, `,"target":`...)
	dst = appendJSONString(dst, o.Target)
	dst = append(dst, `,"op":`...)
	dst = appendJSONString(dst, o.Op)
	dst = append(dst, `,"line":`...)
	dst = strconv.AppendInt(dst, int64(o.Line), 10)
	dst = append(dst, `,"started_at":`...)
	if dst, err = appendTime(dst, o.StartedAt); err != nil {
		return nil, err
	}
	dst = append(dst, `,"duration_ns":`...)
	dst = strconv.AppendInt(dst, int64(o.Duration), 10)
	dst = append(dst, `,"outcome":`...)
	dst = appendJSONString(dst, o.Outcome)
	if o.ErrorKind != "" {
		dst = append(dst, `,"error_kind":`...)
		dst = appendJSONString(dst, o.ErrorKind)
	}
	if o.Detail != "" {
		dst = append(dst, `,"detail":`...)
		dst = appendJSONString(dst, o.Detail)
	}
	return append(dst, '}'), nil
}

// appendList appends a slice field: null when nil, [] when empty, else
// what encoding/json writes for it.
func appendList(dst []byte, isNil bool, n int, v any) ([]byte, error) {
	switch {
	case isNil:
		return append(dst, "null"...), nil
	case n == 0:
		return append(dst, "[]"...), nil
	}
	return appendMarshal(dst, v)
}

// appendMarshal appends what encoding/json writes for v (the same bytes
// as when v is a field of an encoded struct: HTML characters escaped).
func appendMarshal(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// appendTime appends t as time.Time's MarshalJSON writes it (RFC 3339
// with nanoseconds, quoted; an error outside the years 0–9999).
func appendTime(dst []byte, t time.Time) ([]byte, error) {
	b, err := t.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// jsonHex is the digits of the \u00XX escapes.
const jsonHex = "0123456789abcdef"

// jsonSafe marks the ASCII bytes a JSON string holds as they are, as
// encoding/json's default (HTML-escaping) encoder decides: not the
// control characters, '"', '\\', '<', '>' and '&'.
var jsonSafe = func() (s [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		s[b] = true
	}
	for _, b := range `"\<>&` {
		s[b] = false
	}
	return s
}()

// appendJSONString appends s as a JSON string exactly as encoding/json's
// default encoder does: \" \\ \b \f \n \r \t, other control characters
// and < > & as \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029
// escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if jsonSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', jsonHex[b>>4], jsonHex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', jsonHex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
