package config

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

// TestFileProbeSharedLoads loads sibling directories through one
// FileProbe, concurrently, and finds what loads without one find: the
// configuration of the shared parent, and the one of a folder that has
// its own. The probe answers a later question from memory.
func TestFileProbeSharedLoads(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "project")
	dirs := []string{filepath.Join(project, "a"), filepath.Join(project, "b"), filepath.Join(project, "own")}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(project, ConfigFileName), `{"lint": {"disable": ["no-targets"]}}`)
	write(filepath.Join(project, "own", ConfigFileName), `{"lint": {"disable": ["undeclared-var"]}}`)
	home := filepath.Join(root, "home")
	probe := NewFileProbe()
	got := make([]*Config, len(dirs))
	var wg sync.WaitGroup
	for i, d := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = Load(LoadOptions{StartDir: d, Home: home, Probe: probe})
		}()
	}
	wg.Wait()
	for i, d := range dirs {
		want, _ := Load(LoadOptions{StartDir: d, Home: home})
		if got[i].ConfigPath != want.ConfigPath || got[i].ConnectorsPath != want.ConnectorsPath || !reflect.DeepEqual(got[i].Lint, want.Lint) {
			t.Errorf("%s: with the probe %q %q %v, without %q %q %v", d, got[i].ConfigPath, got[i].ConnectorsPath, got[i].Lint, want.ConfigPath, want.ConnectorsPath, want.Lint)
		}
	}
	if got[0].ConfigPath != filepath.Join(project, ConfigFileName) || got[2].ConfigPath != filepath.Join(project, "own", ConfigFileName) {
		t.Fatalf("config paths %q and %q", got[0].ConfigPath, got[2].ConfigPath)
	}
	// A file created after the probe answered is not seen by it (one
	// command's view), but is by a load without it.
	late := filepath.Join(dirs[0], ConfigFileName)
	write(late, `{}`)
	if probe.IsFile(late) {
		t.Error("the probe saw a file created after it answered")
	}
	if c, _ := Load(LoadOptions{StartDir: dirs[0], Home: home}); c.ConfigPath != late {
		t.Errorf("a load without the probe found %q, want %q", c.ConfigPath, late)
	}
	if !NewFileProbe().IsFile(late) || NewFileProbe().IsFile(dirs[0]) {
		t.Error("a fresh probe must see the new file and call a directory no file")
	}
}
