package skilltest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/mock"
	"github.com/skillscript/skillc/eval/substrate/datastore"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
)

// MockFile is a mock file (eval/mock format) the sandbox answers
// connectors, llm and, when it mocks them, the stores from. It is parsed
// afresh for every case so response sequences restart.
type MockFile struct {
	Name string // path, for messages
	Data []byte
}

// LoadMock reads and validates a mock file.
func LoadMock(path string) (*MockFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mock file: %w", err)
	}
	if _, err := mock.Parse(path, data); err != nil {
		return nil, err
	}
	return &MockFile{Name: path, Data: data}, nil
}

// SidecarMock returns the mock file that sits next to the skill file at
// path: <name>.mock.yaml (or .mock.yml, .mock.json) for <name>.skill.md.
// It returns "" when there is none.
func SidecarMock(path string) string {
	base := strings.TrimSuffix(path, ".skill.md")
	if base == path {
		base = strings.TrimSuffix(path, filepath.Ext(path))
	}
	for _, ext := range []string{".mock.yaml", ".mock.yml", ".mock.json"} {
		if st, err := os.Stat(base + ext); err == nil && st.Mode().IsRegular() {
			return base + ext
		}
	}
	return ""
}

// sandbox is the per-case environment: a scratch directory holding the
// case's data store and skill store. The directory and the stores are
// created on first use, so a case that touches no store costs nothing.
type sandbox struct {
	parent string
	once   sync.Once
	dir    string
	err    error
	data   *lazyData
	sk     *lazySkills
}

// newSandbox prepares the sandbox of one case; seed is the directory
// whose skills the scratch skill store starts with.
func newSandbox(parent, seed string) *sandbox {
	sb := &sandbox{parent: parent}
	sb.data = &lazyData{sb: sb}
	sb.sk = &lazySkills{sb: sb, seed: seed}
	return sb
}

// path creates the scratch directory (once) and returns name inside it.
func (s *sandbox) path(name string) (string, error) {
	s.once.Do(func() {
		s.dir, s.err = os.MkdirTemp(s.parent, "skilltest-")
		if s.err != nil {
			s.err = fmt.Errorf("sandbox: %w", s.err)
		}
	})
	return filepath.Join(s.dir, name), s.err
}

// close releases the stores and removes the scratch directory.
func (s *sandbox) close() error {
	s.once.Do(func() { s.err = errors.New("the sandbox is closed") })
	err := s.data.close()
	if s.dir != "" {
		if rerr := os.RemoveAll(s.dir); err == nil {
			err = rerr
		}
	}
	return err
}

// runner returns a copy of base wired to the sandbox: connectors and
// models from the mock (or, without one, those of base), the data and
// skill stores from the mock when it answers them and otherwise the
// scratch stores, and no agent connectors.
func (s *sandbox) runner(base *eval.Runner, m *MockFile) (*eval.Runner, error) {
	r := *base
	r.Progress = nil
	if r.Load == nil {
		r.Load = host.Load // a bare base runner still runs child skills
	}
	reg := &contract.Registry{Data: s.data, Skills: s.sk}
	if m != nil {
		mk, err := mock.Parse(m.Name, m.Data)
		if err != nil {
			return nil, err
		}
		mreg := mk.Registry()
		reg.Connectors, reg.Models, reg.DefaultModel = mreg.Connectors, mreg.Models, mreg.DefaultModel
		if mk.Handles(mock.OpDataRead) || mk.Handles(mock.OpDataWrite) {
			reg.Data = mreg.Data
		}
		if mk.Handles(mock.OpSkillRead) || mk.Handles(mock.OpSkillWrite) {
			reg.Skills = mreg.Skills
		}
	} else if base.Registry != nil {
		reg.Connectors, reg.Models, reg.DefaultModel = base.Registry.Connectors, base.Registry.Models, base.Registry.DefaultModel
	}
	r.Registry = reg
	return &r, nil
}

// lazyData is a SQLite data store in the scratch directory, created on
// the first call so cases that never touch the store pay nothing.
type lazyData struct {
	sb    *sandbox
	once  sync.Once
	store *datastore.Store
	err   error
}

var _ contract.DataStore = (*lazyData)(nil)

func (d *lazyData) open() (*datastore.Store, error) {
	d.once.Do(func() {
		var path string
		if path, d.err = d.sb.path("data.db"); d.err == nil {
			d.store, d.err = datastore.Open(path, datastore.Options{})
		}
	})
	return d.store, d.err
}

func (d *lazyData) close() error {
	d.once.Do(func() { d.err = errors.New("the sandbox data store is closed") })
	if d.store != nil {
		return d.store.Close()
	}
	return nil
}

// Write implements contract.DataStore.
func (d *lazyData) Write(ctx context.Context, req contract.WriteRequest) (contract.WriteResult, error) {
	s, err := d.open()
	if err != nil {
		return contract.WriteResult{}, err
	}
	return s.Write(ctx, req)
}

// Query implements contract.DataStore.
func (d *lazyData) Query(ctx context.Context, q contract.Query) ([]contract.Record, error) {
	s, err := d.open()
	if err != nil {
		return nil, err
	}
	return s.Query(ctx, q)
}

// Get implements contract.DataStore.
func (d *lazyData) Get(ctx context.Context, id string) (*contract.Record, error) {
	s, err := d.open()
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// Manifest implements contract.DataStore.
func (d *lazyData) Manifest(ctx context.Context) contract.DataManifest {
	s, err := d.open()
	if err != nil {
		return contract.DataManifest{}
	}
	return s.Manifest(ctx)
}

// lazySkills is a filesystem skill store in the scratch directory, seeded
// on first use with a copy of the *.skill.md files of seed, so skills
// written or re-statused by a test never reach the real store.
type lazySkills struct {
	sb    *sandbox
	seed  string
	once  sync.Once
	store *skillstore.FS
	err   error
}

var _ contract.SkillStore = (*lazySkills)(nil)

func (l *lazySkills) open() (*skillstore.FS, error) {
	l.once.Do(func() {
		var dir string
		if dir, l.err = l.sb.path("skills"); l.err != nil {
			return
		}
		if l.err = copySkills(l.seed, dir); l.err == nil {
			l.store, l.err = skillstore.NewFS(dir, nil)
		}
	})
	return l.store, l.err
}

// copySkills copies the top-level skill files and version history of src
// into dst. An empty src copies nothing.
func copySkills(src, dst string) error {
	if err := os.MkdirAll(filepath.Join(dst, ".versions"), 0o755); err != nil {
		return fmt.Errorf("sandbox skill store: %w", err)
	}
	if src == "" {
		return nil
	}
	for _, pat := range []string{"*" + skillstore.Ext, filepath.Join(".versions", "*.json")} {
		matches, err := filepath.Glob(filepath.Join(src, pat))
		if err != nil {
			return err
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(src, m)
			if err := copyFile(m, filepath.Join(dst, rel)); err != nil {
				return fmt.Errorf("sandbox skill store: %w", err)
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !st.Mode().IsRegular() {
		return err // skip directories and devices named like skills
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Get implements contract.SkillStore.
func (l *lazySkills) Get(ctx context.Context, name string) (*contract.SkillRecord, error) {
	s, err := l.open()
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, name)
}

// Write implements contract.SkillStore.
func (l *lazySkills) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	s, err := l.open()
	if err != nil {
		return nil, err
	}
	return s.Write(ctx, name, body, author)
}

// List implements contract.SkillStore.
func (l *lazySkills) List(ctx context.Context, q contract.SkillQuery) ([]contract.SkillMeta, error) {
	s, err := l.open()
	if err != nil {
		return nil, err
	}
	return s.List(ctx, q)
}

// Delete implements contract.SkillStore.
func (l *lazySkills) Delete(ctx context.Context, name string) error {
	s, err := l.open()
	if err != nil {
		return err
	}
	return s.Delete(ctx, name)
}

// Versions implements contract.SkillStore.
func (l *lazySkills) Versions(ctx context.Context, name string) ([]contract.SkillVersion, error) {
	s, err := l.open()
	if err != nil {
		return nil, err
	}
	return s.Versions(ctx, name)
}

// UpdateStatus implements contract.SkillStore.
func (l *lazySkills) UpdateStatus(ctx context.Context, name, status string) error {
	s, err := l.open()
	if err != nil {
		return err
	}
	return s.UpdateStatus(ctx, name, status)
}
