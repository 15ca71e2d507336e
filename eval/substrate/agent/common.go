package agent

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

func nowMillis(now func() time.Time) int64 {
	if now == nil {
		return time.Now().UnixMilli()
	}
	return now().UnixMilli()
}

func randomID() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// wakePayload is the payload a passive substrate stores in place of an
// interrupt. The wake path has no runtime envelope, so the connector mints
// a dispatch id and marks the trigger inline.
func wakePayload(agentID string, opts contract.WakeOptions, now int64) contract.DeliveryPayload {
	return contract.DeliveryPayload{
		Kind:    contract.KindAugment,
		Content: opts.Context,
		Meta: contract.DeliveryMeta{
			DispatchID: randomID(),
			SentAt:     now,
			Origin:     contract.DeliveryOrigin{TriggerKind: contract.TriggerInline},
		},
	}
}

func notImplemented() error { return &contract.NotImplementedError{Method: "request_response"} }
