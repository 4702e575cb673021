package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// maxJSONBody bounds a JSON request body.
const maxJSONBody = 64 << 10

// apiError is an error with the HTTP status a client should see.
type apiError struct {
	Status int
	Msg    string
	// RetryAfter, if positive, is sent as the Retry-After header (in
	// seconds) of a 429 or 503.
	RetryAfter int
}

func (e *apiError) Error() string { return e.Msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{Status: status, Msg: fmt.Sprintf(format, args...)}
}

// writeJSON writes v as the response with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v)
}

// writeError writes err as {"error": "..."}: an *apiError with its own
// status, anything else as a 500 whose details go to the log only.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if errors.As(err, &ae) {
		retryAfter(w, ae.RetryAfter)
		writeJSON(w, ae.Status, map[string]string{"error": ae.Msg})
		return
	}
	s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal error; it has been logged"})
}

// decodeJSON reads the request body into v: a JSON object of at most
// maxJSONBody bytes with no unknown fields and nothing after it. The error
// says what is wrong in words a script author can act on.
func decodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return errorf(http.StatusUnsupportedMediaType, "send the body as application/json (got %q)", ct)
		}
	}
	body := http.MaxBytesReader(nil, r.Body, maxJSONBody)
	return decodeJSONFrom(body, v)
}

// decodeJSONFrom is decodeJSON's body parser, separate so it can be fuzzed.
func decodeJSONFrom(body io.Reader, v any) error {
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errorf(http.StatusBadRequest, "body: one JSON object expected, found more after it")
	}
	return nil
}

func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return errorf(http.StatusRequestEntityTooLarge, "body: larger than %d bytes", tooBig.Limit)
	case errors.Is(err, io.EOF):
		return errorf(http.StatusBadRequest, "body: empty; a JSON object was expected")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errorf(http.StatusBadRequest, "body: the JSON ends too early")
	case errors.As(err, &syn):
		return errorf(http.StatusBadRequest, "body: malformed JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return errorf(http.StatusBadRequest, "body: field %q must be a %s, not %s", typ.Field, typ.Type, typ.Value)
		}
		return errorf(http.StatusBadRequest, "body: a JSON object was expected, not %s", typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return errorf(http.StatusBadRequest, "body: unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return errorf(http.StatusBadRequest, "body: %v", err)
}
