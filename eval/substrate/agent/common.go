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
// interrupt: the runtime's envelope when the wake carries one, otherwise
// (a wake not issued by a run) a minted dispatch id marked inline.
func wakePayload(agentID string, opts contract.WakeOptions, now int64) contract.DeliveryPayload {
	if opts.Meta != nil && opts.Meta.DispatchID != "" {
		return contract.DeliveryPayload{Kind: contract.KindAugment, Content: opts.Context, Meta: *opts.Meta}
	}
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
