package filter

import (
	"fmt"
	"math"
	"time"

	"github.com/skillscript/skillc/eval/value"
)

// maxEpochMillis is the largest magnitude a JavaScript Date can hold.
const maxEpochMillis = 8.64e15

func isodate(v any) (any, error) {
	secs, err := value.Number(v)
	if err != nil {
		return nil, &value.TypeMismatchError{Op: "isodate", Want: "epoch seconds", Got: value.TypeName(v), Value: value.Preview(v, 40)}
	}
	ms := math.Trunc(secs * 1000)
	if math.IsNaN(ms) || math.Abs(ms) > maxEpochMillis {
		return nil, &value.TypeMismatchError{Op: "isodate", Want: "epoch seconds within ±8.64e12", Got: "number", Value: value.FormatNumber(secs)}
	}
	return ISODate(int64(ms)), nil
}

// ISODate formats epoch milliseconds like JavaScript's Date#toISOString:
// 2026-05-24T22:00:00.000Z, with a signed six-digit year outside 0–9999.
func ISODate(ms int64) string {
	t := time.UnixMilli(ms).UTC()
	year := fmt.Sprintf("%04d", t.Year())
	if y := t.Year(); y < 0 || y > 9999 {
		sign := "+"
		if y < 0 {
			sign, y = "-", -y
		}
		year = fmt.Sprintf("%s%06d", sign, y)
	}
	return fmt.Sprintf("%s-%02d-%02dT%02d:%02d:%02d.%03dZ", year, t.Month(), t.Day(),
		t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1e6)
}
