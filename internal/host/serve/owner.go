package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/skillscript/skillc/eval/contract"
)

// Skill ownership (issue 22 item 11). With an identity header configured
// the host tells callers apart, and a stored skill belongs to its owner:
// the identity that wrote its first recorded version (the author of the
// store's oldest version entry). Only the owner or the operator may
// overwrite it or change its status. The operator is whoever acts on the
// store outside MCP — the CLI (skillc approve, skillc skills ...) and the
// approvals dashboard behind its token — and, over MCP, a caller whose
// identity header equals Settings.OperatorIdentity. A skill without a
// recorded author (a file placed in the store directory) belongs to the
// operator. Without an identity header every caller is the same
// anonymous principal and ownership is not enforced.

// EnvOperatorIdentity is the caller identity (identity header value)
// that acts as the operator over MCP (Settings.OperatorIdentity).
const EnvOperatorIdentity = "SKILLSCRIPT_OPERATOR_IDENTITY"

// OwnershipError refuses a change to a skill the caller does not own.
type OwnershipError struct {
	Skill  string
	Owner  string // "" when no author is recorded: the operator's
	Caller string
}

// Error implements error.
func (e *OwnershipError) Error() string {
	owner := "the operator (no author is recorded)"
	if e.Owner != "" {
		owner = fmt.Sprintf("%q", e.Owner)
	}
	caller := fmt.Sprintf("%q", e.Caller)
	if e.Caller == "" {
		caller = "an anonymous caller"
	}
	return fmt.Sprintf("skill %q belongs to %s: %s may not overwrite it or change its status (only its author or the operator may)", e.Skill, owner, caller)
}

// Owner returns the author of the skill's first recorded version, "" when
// the store recorded none.
func Owner(ctx context.Context, store contract.SkillStore, name string) (string, error) {
	vs, err := store.Versions(ctx, name)
	if err != nil || len(vs) == 0 {
		return "", err
	}
	return vs[0].Author, nil
}

// ownerStore enforces ownership on the writes that reach the host's skill
// store: skill_write and a run's $ skill_write (both stamp the writer as
// the author) and, through changeStatus, skill_status. mu serializes the
// check with the change.
type ownerStore struct {
	contract.SkillStore
	operator string
	mu       *sync.Mutex
}

// Write stores body when author may change the skill named name.
func (s *ownerStore) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.mayChange(ctx, name, author); err != nil {
		return nil, err
	}
	return s.SkillStore.Write(ctx, name, body, author)
}

// changeStatus sets the skill's status when who may change it.
func (s *ownerStore) changeStatus(ctx context.Context, name, status, who string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.mayChange(ctx, name, who); err != nil {
		return err
	}
	return s.SkillStore.UpdateStatus(ctx, name, status)
}

// mayChange allows the operator, a new skill, and the owner of an
// existing one.
func (s *ownerStore) mayChange(ctx context.Context, name, who string) error {
	if s.operator != "" && who == s.operator {
		return nil
	}
	rec, err := s.SkillStore.Get(ctx, name)
	if err != nil || rec == nil {
		return err
	}
	owner, err := Owner(ctx, s.SkillStore, name)
	if err != nil {
		return err
	}
	if owner != "" && owner == who {
		return nil
	}
	return &OwnershipError{Skill: name, Owner: owner, Caller: who}
}

// Version passes the store's change token through (skill_list's
// catalog_version), or digests the listing when the store has none.
func (s *ownerStore) Version(ctx context.Context) (string, error) {
	if v, ok := s.SkillStore.(contract.Versioner); ok {
		return v.Version(ctx)
	}
	metas, err := s.SkillStore.List(ctx, contract.SkillQuery{})
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, m := range metas {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", m.Name, m.Status, m.ContentHash)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// guardOwnership gives the host a runner of its own whose skill store
// enforces ownership, when an identity header tells callers apart. The
// runner passed in (shared with the dashboard, an operator surface) is
// left as it is.
func (h *Host) guardOwnership() {
	reg := h.runner.Registry
	if h.set.IdentityHeader == "" || reg == nil || reg.Skills == nil {
		return
	}
	r := *h.runner
	guarded := *reg
	guarded.Skills = &ownerStore{SkillStore: reg.Skills, operator: strings.TrimSpace(h.set.OperatorIdentity), mu: &sync.Mutex{}}
	r.Registry = &guarded
	h.runner = &r
}

// unguarded returns the store under the ownership guard.
func unguarded(s contract.SkillStore) contract.SkillStore {
	if os, ok := s.(*ownerStore); ok {
		return os.SkillStore
	}
	return s
}

// setStatus changes a skill's status on behalf of the caller, refusing a
// caller who does not own it.
func (h *Host) setStatus(ctx context.Context, c *call, name, status string) error {
	store, err := h.store()
	if err != nil {
		return err
	}
	if os, ok := store.(*ownerStore); ok {
		return os.changeStatus(ctx, name, status, h.author(c))
	}
	return store.UpdateStatus(ctx, name, status)
}

// ownershipErr reports an OwnershipError as NotSkillOwner, any other
// error under name.
func ownershipErr(name string, err error) *Error {
	var oe *OwnershipError
	if errors.As(err, &oe) {
		return &Error{Name: ErrNotOwner, Message: oe.Error(), Err: err,
			Details: map[string]string{"skill": oe.Skill, "owner": oe.Owner, "caller": oe.Caller}}
	}
	return wrapErr(name, err)
}

// gatewayCaller is the caller a gateway run records: with an identity
// header configured always the header's value (a body's options.caller
// cannot replace it); without one the body's value, else "".
func (h *Host) gatewayCaller(header, body string) string {
	if h.set.IdentityHeader != "" {
		return header
	}
	if body != "" {
		return body
	}
	return header
}

// callerKey carries the identity header's value of an HTTP gateway
// request to the executor.
type callerKey struct{}

// withHeaderCaller records, for the gateway's HTTP routes, the identity
// header's value of each request (when a header is configured), so the
// executor records it instead of the body's options.caller.
func (h *Host) withHeaderCaller(next http.Handler) http.Handler {
	if h.set.IdentityHeader == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := strings.TrimSpace(r.Header.Get(h.set.IdentityHeader))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, v)))
	})
}

// runCaller is the caller of a gateway run: the identity header's value
// an HTTP request carried, else what the MCP tool resolved.
func runCaller(ctx context.Context, req string) string {
	if v, ok := ctx.Value(callerKey{}).(string); ok {
		return v
	}
	return req
}

// mayManageTriggers refuses a caller who may not change skill from
// registering, removing, enabling or disabling its triggers: what fires a
// skill is the owner's or the operator's to decide, like its status.
func (h *Host) mayManageTriggers(ctx context.Context, c *call, skill string) error {
	store, err := h.store()
	if err != nil {
		return err
	}
	os, ok := store.(*ownerStore)
	if !ok {
		return nil
	}
	os.mu.Lock()
	defer os.mu.Unlock()
	if err := os.mayChange(ctx, skill, h.author(c)); err != nil {
		return ownershipErr(skill, err)
	}
	return nil
}
