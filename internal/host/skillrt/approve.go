package skillrt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/internal/host/registry"
)

// ScriptApprovalsFile is the name of the approvals file under
// $SKILLSCRIPT_HOME.
const ScriptApprovalsFile = "script-approvals.json"

// ApproveCommand is the CLI command that approves a package's scripts.
const ApproveCommand = "skillc skills approve-scripts"

// NeedsScriptApproval reports whether the scripts of a package from
// origin run only after the operator approved the package's content: a
// package from the project root (a checked-out repository the operator
// may not have written) or from an MCP server (AGENT-SKILLS.md §5.5).
// Packages from the user's, the configured and the store roots are the
// operator's own.
func NeedsScriptApproval(origin string) bool {
	return origin == registry.OriginProject || strings.HasPrefix(origin, "mcp:")
}

// ScriptApproval is one approved package: its origin-qualified id and the
// digest of the content approved (the sha256 manifest hash, which covers
// SKILL.md with its metadata and every script).
type ScriptApproval struct {
	ID         string    `json:"id"`
	Digest     string    `json:"digest"`
	ApprovedAt time.Time `json:"approved_at"`
}

// ScriptApprovals is the operator's record of approved packages, a JSON
// file (mode 0600) read on every check, so an approval given with the CLI
// takes effect in a running host at once. Any change to a package
// changes its digest and so revokes the approval.
type ScriptApprovals struct {
	Path string
	mu   sync.Mutex // serialises writers of this process
}

// NewScriptApprovals returns the store at path.
func NewScriptApprovals(path string) *ScriptApprovals { return &ScriptApprovals{Path: path} }

type approvalsFile struct {
	Approvals []ScriptApproval `json:"approvals"`
}

// List returns the approvals, sorted by id; a missing file is empty.
func (a *ScriptApprovals) List() ([]ScriptApproval, error) {
	data, err := os.ReadFile(a.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("script approvals: %w", err)
	}
	var f approvalsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("script approvals %s: %w", a.Path, err)
	}
	sort.Slice(f.Approvals, func(i, j int) bool { return f.Approvals[i].ID < f.Approvals[j].ID })
	return f.Approvals, nil
}

// lookup returns the approval of id, if any.
func (a *ScriptApprovals) lookup(id string) (ScriptApproval, bool, error) {
	list, err := a.List()
	if err != nil {
		return ScriptApproval{}, false, err
	}
	for _, e := range list {
		if e.ID == id {
			return e, true, nil
		}
	}
	return ScriptApproval{}, false, nil
}

// Approve records id at digest, replacing an earlier approval of id.
func (a *ScriptApprovals) Approve(id, digest string) error {
	if id == "" || !strings.HasPrefix(digest, "sha256:") || len(digest) != len("sha256:")+64 {
		return fmt.Errorf("approve %q: the digest must be sha256:<64 hex digits>, not %q", id, digest)
	}
	return a.update(func(list []ScriptApproval) []ScriptApproval {
		list = removeApproval(list, id)
		return append(list, ScriptApproval{ID: id, Digest: digest, ApprovedAt: time.Now().UTC()})
	})
}

// Revoke removes the approval of id and reports whether there was one.
func (a *ScriptApprovals) Revoke(id string) (bool, error) {
	found := false
	err := a.update(func(list []ScriptApproval) []ScriptApproval {
		out := removeApproval(list, id)
		found = len(out) != len(list)
		return out
	})
	return found, err
}

func removeApproval(list []ScriptApproval, id string) []ScriptApproval {
	out := list[:0:0]
	for _, e := range list {
		if e.ID != id {
			out = append(out, e)
		}
	}
	return out
}

// update rewrites the file atomically (a temporary file renamed over it).
func (a *ScriptApprovals) update(change func([]ScriptApproval) []ScriptApproval) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	list, err := a.List()
	if err != nil {
		return err
	}
	list = change(list)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	data, err := json.MarshalIndent(approvalsFile{Approvals: list}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(a.Path), 0o700); err != nil {
		return fmt.Errorf("script approvals: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(a.Path), ".script-approvals-*")
	if err != nil {
		return fmt.Errorf("script approvals: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("script approvals: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("script approvals: %w", err)
	}
	return os.Rename(tmp.Name(), a.Path)
}

// ScriptApprovalError is the refusal of a script of a package that needs
// approval and has none for its current content. Its message names the
// command that approves it.
type ScriptApprovalError struct {
	ID, Origin, Digest string
	Previous           string // the digest approved earlier, when the content changed since
	Command            string // the command that approves this content
}

func (e *ScriptApprovalError) Error() string {
	where := "the project root"
	if strings.HasPrefix(e.Origin, "mcp:") {
		where = "MCP server " + strings.TrimPrefix(e.Origin, "mcp:")
	}
	why := "is not approved"
	if e.Previous != "" {
		why = fmt.Sprintf("changed since the operator approved it (approved %s, now %s), which revoked the approval", short(e.Previous), short(e.Digest))
	}
	return fmt.Sprintf("skills_run_script refused: skill %s comes from %s and %s; scripts of such packages run only after the operator approves their content. The operator approves this version (%s) with: %s", e.ID, where, why, e.Digest, e.Command)
}

func short(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}

// approveCommand is the command line that approves rec as it is now.
func (so ScriptOptions) approveCommand(rec *registry.Record) string {
	cmd := ApproveCommand
	if rec.Origin == registry.OriginProject && so.Project != "" {
		cmd += " --project " + shellQuote(so.Project)
	}
	if strings.HasPrefix(rec.Origin, "mcp:") {
		cmd += " --digest " + rec.Digest
	}
	return cmd + " " + shellQuote(rec.ID)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// scriptApproved refuses a script of a package that needs approval
// (NeedsScriptApproval) unless the approvals hold its current digest.
func (rt *Runtime) scriptApproved(rec *registry.Record) error {
	if !NeedsScriptApproval(rec.Origin) {
		return nil
	}
	so := rt.opts.Scripts
	refusal := &ScriptApprovalError{ID: rec.ID, Origin: rec.Origin, Digest: rec.Digest, Command: so.approveCommand(rec)}
	if so.Approvals == nil {
		return refusal
	}
	got, ok, err := so.Approvals.lookup(rec.ID)
	if err != nil {
		return fmt.Errorf("skills_run_script refused: cannot read the operator's script approvals: %v", err)
	}
	if ok && got.Digest == rec.Digest {
		return nil
	}
	if ok {
		refusal.Previous = got.Digest
	}
	return refusal
}
