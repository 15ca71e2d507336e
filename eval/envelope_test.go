package eval

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/leaf/lang"
)

// TestEnvelopeFieldsMatchResult: the result envelope keys the linter
// protects (# Returns: may not name them) are the JSON fields of Result.
func TestEnvelopeFieldsMatchResult(t *testing.T) {
	rt := reflect.TypeOf(Result{})
	for i := 0; i < rt.NumField(); i++ {
		tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		if !lang.IsEnvelopeField(tag) {
			t.Errorf("Result field %s (json %q) is not in lang.EnvelopeFields", rt.Field(i).Name, tag)
		}
	}
	if !lang.IsEnvelopeField("skill_name") || lang.IsEnvelopeField("SUMMARY") {
		t.Error("IsEnvelopeField: skill_name must be a field, SUMMARY not")
	}
}
