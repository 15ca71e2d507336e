package skillrt

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/skillscript/skillc/internal/host/registry"
)

// LoadInput is the input of skills_load.
type LoadInput struct {
	Names []string `json:"names" jsonschema:"names of the skills to load, from <available_skills>"`
	Mode  string   `json:"mode,omitempty" jsonschema:"replace (default): the loaded set becomes names; add: names are added to it"`
}

// File is one bundled file of a package, relative to its root and
// absolute.
type File struct {
	Path    string `json:"path"`
	AbsPath string `json:"abs_path"`
	Size    int64  `json:"size"`
}

// Receipt describes one active package skill.
type Receipt struct {
	Name       string         `json:"name"`
	ID         string         `json:"id"`
	Origin     string         `json:"origin"`
	Location   string         `json:"location"`
	RootDir    string         `json:"root_dir"`
	Digest     string         `json:"digest"`
	Properties map[string]any `json:"properties"`
	Files      []File         `json:"files"`
}

// ScriptContract is what skills_load returns for a skillscript: it is run
// by the runtime, not followed as instructions.
type ScriptContract struct {
	Name        string             `json:"name"`
	ID          string             `json:"id"`
	Description string             `json:"description"`
	Location    string             `json:"location"`
	Digest      string             `json:"digest"`
	Contract    *registry.Contract `json:"contract"`
	Run         string             `json:"run"`
}

// LoadOutput is the result of skills_load: the session's active package
// skills after the call (most recent last) and the contracts of any
// skillscripts named.
type LoadOutput struct {
	ActiveSkills []Receipt        `json:"active_skills"`
	Skillscripts []ScriptContract `json:"skillscripts,omitempty"`
}

// Load runs skills_load for a session.
func (rt *Runtime) Load(sessionID string, in LoadInput) (LoadOutput, error) {
	if len(in.Names) == 0 {
		return LoadOutput{}, fmt.Errorf("names is empty; pass the names of the skills to load")
	}
	mode := in.Mode
	if mode == "" {
		mode = "replace"
	}
	if mode != "replace" && mode != "add" {
		return LoadOutput{}, fmt.Errorf("unknown mode %q; use replace or add", in.Mode)
	}
	pkgs, scripts, err := rt.resolveAll(in.Names)
	if err != nil {
		return LoadOutput{}, err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := rt.session(sessionID)
	rt.revalidate(s)
	next := nextActive(s.Active, pkgs, mode)
	if len(next) > rt.opts.maxActive() {
		return LoadOutput{}, fmt.Errorf("loading these skills would make %d active, over the limit of %d; load fewer skills or call skills_unload first", len(next), rt.opts.maxActive())
	}
	s.Active = next
	return LoadOutput{ActiveSkills: rt.receipts(s.Active), Skillscripts: scripts}, nil
}

// resolveAll looks up every name and splits packages from skillscripts.
func (rt *Runtime) resolveAll(names []string) ([]*registry.Record, []ScriptContract, error) {
	var pkgs []*registry.Record
	var scripts []ScriptContract
	for _, n := range names {
		rec, err := rt.resolve(n)
		if err != nil {
			return nil, nil, err
		}
		if rec.Kind == registry.KindScript {
			scripts = append(scripts, scriptContract(rec))
			continue
		}
		pkgs = append(pkgs, rec)
	}
	return pkgs, scripts, nil
}

func scriptContract(rec *registry.Record) ScriptContract {
	return ScriptContract{
		Name: rec.Name, ID: rec.ID, Description: rec.Description, Location: rec.Location, Digest: rec.Digest,
		Contract: rec.Contract,
		Run:      fmt.Sprintf("this is a skillscript: it is executed by the runtime, not followed as instructions; run it with execute_skill name=%q and its vars as inputs", rec.Name),
	}
}

// nextActive computes the active list after a load: replace keeps only
// recs, add appends them; a skill loaded again moves to the end.
func nextActive(cur []Active, recs []*registry.Record, mode string) []Active {
	var out []Active
	if mode == "add" {
		out = append(out, cur...)
	}
	now := time.Now().UTC()
	for _, rec := range recs {
		out = removeActive(out, rec.ID)
		out = append(out, Active{Name: rec.Name, ID: rec.ID, Digest: rec.Digest, LoadedAt: now})
	}
	return out
}

func removeActive(as []Active, id string) []Active {
	out := as[:0:0]
	for _, a := range as {
		if a.ID != id {
			out = append(out, a)
		}
	}
	return out
}

// receipts describes the active skills.
func (rt *Runtime) receipts(as []Active) []Receipt {
	out := make([]Receipt, 0, len(as))
	for _, a := range as {
		if rec, ok := rt.reg.Lookup(a.ID); ok {
			out = append(out, receipt(rec))
		}
	}
	return out
}

func receipt(rec *registry.Record) Receipt {
	r := Receipt{Name: rec.Name, ID: rec.ID, Origin: rec.Origin, Location: rec.Location, RootDir: rec.Root, Digest: rec.Digest, Properties: rec.FrontmatterMap()}
	for _, res := range rec.Resources {
		r.Files = append(r.Files, File{Path: res.Path, AbsPath: filepath.Join(rec.Root, filepath.FromSlash(res.Path)), Size: res.Size})
	}
	return r
}

// UnloadInput is the input of skills_unload.
type UnloadInput struct {
	Names []string `json:"names,omitempty" jsonschema:"names of the loaded skills to unload"`
	All   bool     `json:"all,omitempty" jsonschema:"unload every loaded skill"`
}

// UnloadOutput is the session's active skills after skills_unload.
type UnloadOutput struct {
	ActiveSkills []Receipt `json:"active_skills"`
}

// Unload runs skills_unload for a session.
func (rt *Runtime) Unload(sessionID string, in UnloadInput) (UnloadOutput, error) {
	if !in.All && len(in.Names) == 0 {
		return UnloadOutput{}, fmt.Errorf("pass names to unload, or all: true")
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := rt.session(sessionID)
	if in.All {
		s.Active = nil
		return UnloadOutput{ActiveSkills: []Receipt{}}, nil
	}
	for _, n := range in.Names {
		kept := s.Active[:0]
		for _, a := range s.Active {
			if a.Name != n && a.ID != n {
				kept = append(kept, a)
			}
		}
		s.Active = kept
	}
	return UnloadOutput{ActiveSkills: rt.receipts(s.Active)}, nil
}

// ReceiptOf describes a package skill like skills_load does, without
// activating it in a session (the gateway's run of a package).
func ReceiptOf(rec *registry.Record) Receipt { return receipt(rec) }
