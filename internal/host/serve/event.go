package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/host/trigger"
)

// eventBody is the JSON body of POST /event. event_name/params is the
// documented form; name or event and payload are accepted aliases.
type eventBody struct {
	EventName string       `json:"event_name"`
	Name      string       `json:"name"`
	Event     string       `json:"event"`
	Params    value.Inputs `json:"params"`
	Payload   value.Inputs `json:"payload"`
}

func (b eventBody) name() string {
	for _, n := range []string{b.EventName, b.Name, b.Event} {
		if n = strings.TrimSpace(n); n != "" {
			return n
		}
	}
	return ""
}

// serveEvent is POST /event: 404 when ingress is off or the event is
// unknown, 405 for other methods, 401 for a missing or wrong token, 400
// for a bad body or params, 200 {run_id, durability} once queued.
func (h *Host) serveEvent(w http.ResponseWriter, r *http.Request) {
	code := h.event(w, r)
	h.metrics.events.WithLabelValues(strconv.Itoa(code)).Inc()
}

func (h *Host) event(w http.ResponseWriter, r *http.Request) int {
	fail := func(code int, name, msg string) int {
		writeJSON(w, code, errorBody{Error: name, Message: msg})
		return code
	}
	if !h.set.EventIngress || h.triggers == nil {
		return fail(http.StatusNotFound, "NotFound", "event ingress is not enabled (SKILLSCRIPT_EVENT_INGRESS_ENABLED)")
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return fail(http.StatusMethodNotAllowed, "MethodNotAllowed", "POST only")
	}
	if h.set.EventToken != "" && !tokenOK(r, h.set.EventToken) {
		return fail(http.StatusUnauthorized, "Unauthorized", "missing or wrong bearer token")
	}
	if h.Draining() {
		return fail(http.StatusServiceUnavailable, ErrShuttingDown, "the host is shutting down")
	}
	var body eventBody
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return fail(http.StatusBadRequest, "BadRequest", "body: "+err.Error())
	}
	name := body.name()
	if name == "" {
		return fail(http.StatusBadRequest, "BadRequest", "event_name is missing or empty")
	}
	params := body.Params
	if params == nil {
		params = body.Payload
	}
	if code, ok := h.backpressure(w, r); !ok {
		return code
	}
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	id, dup, err := h.triggers.FireEventOnce(r.Context(), name, params, key)
	var pe *trigger.ParamError
	switch {
	case trigger.IsNotFound(err):
		return fail(http.StatusNotFound, "UnknownEvent", err.Error())
	case errors.As(err, &pe):
		return fail(http.StatusBadRequest, "BadParams", err.Error())
	case err != nil:
		h.log.Error("event enqueue failed", "event", name, "err", err)
		return fail(http.StatusInternalServerError, ErrInternal, "could not queue the event")
	}
	if dup {
		h.metrics.eventDups.Inc()
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeJSON(w, http.StatusOK, map[string]string{"run_id": id, "durability": h.triggers.Durability()})
	return http.StatusOK
}

// retryAfterSeconds is the Retry-After of a 429 from a full queue.
const retryAfterSeconds = 5

// backpressure refuses an event while the queue holds MaxQueueDepth or
// more unfinished fires: 429 with Retry-After, before anything is queued.
// It reports false with the status written when it refused.
func (h *Host) backpressure(w http.ResponseWriter, r *http.Request) (int, bool) {
	if h.set.MaxQueueDepth <= 0 {
		return 0, true
	}
	n, err := h.triggers.QueueDepth(r.Context())
	if err != nil {
		h.log.Error("queue depth unknown", "err", err)
		writeJSON(w, http.StatusInternalServerError, errorBody{Error: ErrInternal, Message: "could not read the queue depth"})
		return http.StatusInternalServerError, false
	}
	if n < h.set.MaxQueueDepth {
		return 0, true
	}
	w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
	writeJSON(w, http.StatusTooManyRequests, errorBody{Error: "QueueFull",
		Message: fmt.Sprintf("the trigger queue holds %d unfinished fires (limit %d, %s); retry later", n, h.set.MaxQueueDepth, EnvMaxQueueDepth)})
	return http.StatusTooManyRequests, false
}
