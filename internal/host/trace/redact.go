package trace

import (
	"strings"
)

// Redacted replaces a secret value in recorded inputs.
const Redacted = "[redacted]"

// RedactInputs returns a copy of in in which every string containing one
// of the provisioned secret values, and every value under a key whose name
// says it is a credential (token, secret, password, api_key, ...), is
// replaced by [Redacted]. Nested maps and lists are walked.
func RedactInputs(in map[string]any, secrets []string) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		if credentialKey(k) {
			out[k] = Redacted
			continue
		}
		out[k] = redactValue(v, secrets)
	}
	return out
}

func redactValue(v any, secrets []string) any {
	switch t := v.(type) {
	case string:
		for _, s := range secrets {
			if s != "" && strings.Contains(t, s) {
				return Redacted
			}
		}
		return t
	case map[string]any:
		return RedactInputs(t, secrets)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = redactValue(e, secrets)
		}
		return out
	}
	return v
}

func credentialKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"token", "secret", "password", "passwd", "api_key", "apikey", "credential", "private_key"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}
