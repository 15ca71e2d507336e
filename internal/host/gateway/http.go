package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// errorBody is the JSON of a refused request.
type errorBody struct {
	Error  string  `json:"error"` // RequestError, AttachValidationError or InternalError
	Reason *Reason `json:"reason,omitempty"`
}

// Status maps a reason code to an HTTP status.
func Status(code string) int {
	switch code {
	case ReasonUnknownSkill, ReasonTargetNotFound:
		return http.StatusNotFound
	case ReasonNotAttachable, ReasonNotCallable, ReasonTargetTypeNotAllowed, ReasonInvalidClassification, ReasonNotLoadable, ReasonTargetInput, ReasonRunRefused:
		return http.StatusConflict
	case ReasonTargetOutsideRoot, ReasonTargetUnavailable, ReasonNotRunnable:
		return http.StatusUnprocessableEntity
	}
	return http.StatusBadRequest
}

// Handler serves the gateway over HTTP: POST /gateway/discover, /list,
// /attach and /run take and return the JSON of the core's request and
// response types; GET /gateway/openapi.json is their OpenAPI document.
// Unknown request fields are refused.
func Handler(g *Gateway, version string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /gateway/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		doc, err := OpenAPI(version)
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, errorBody{Error: "InternalError", Reason: &Reason{Code: "internal", Message: err.Error()}})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	})
	mux.Handle("POST /gateway/discover", endpoint(g.Discover))
	mux.Handle("POST /gateway/list", endpoint(g.List))
	mux.Handle("POST /gateway/attach", endpoint(g.Attach))
	mux.Handle("POST /gateway/run", endpoint(g.Run))
	return mux
}

// endpoint decodes the request body into In, calls fn and writes Out or
// the structured error.
func endpoint[In, Out any](fn func(context.Context, In) (*Out, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in In
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody{Error: "RequestError", Reason: &Reason{Code: ReasonInvalidRequest, Message: "request body: " + jsonProblem(err)}})
			return
		}
		if dec.More() {
			writeJSON(w, http.StatusBadRequest, errorBody{Error: "RequestError", Reason: &Reason{Code: ReasonInvalidRequest, Message: "request body: more than one JSON value"}})
			return
		}
		out, err := fn(r.Context(), in)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// jsonProblem describes a decoding error without Go type names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonKind(k string) string {
	switch k {
	case "int", "int64", "float64":
		return "a number"
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "map", "struct":
		return "an object"
	case "bool":
		return "a boolean"
	}
	return k
}

func writeError(w http.ResponseWriter, err error) {
	var ave *AttachValidationError
	var re *RequestError
	switch {
	case errors.As(err, &ave):
		writeJSON(w, Status(ave.Reason.Code), errorBody{Error: "AttachValidationError", Reason: &ave.Reason})
	case errors.As(err, &re):
		writeJSON(w, Status(re.Reason.Code), errorBody{Error: "RequestError", Reason: &re.Reason})
	default:
		writeJSON(w, http.StatusInternalServerError, errorBody{Error: "InternalError", Reason: &Reason{Code: "internal", Message: err.Error()}})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
