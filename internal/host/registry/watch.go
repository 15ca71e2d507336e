package registry

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch refreshes the registry whenever a file under a root changes,
// until ctx is done. The first event arms a timer of the given period
// (default 100ms) and the refresh runs when it fires, so a burst of
// events costs one refresh and a steady stream one per period; onChange, when not nil, runs after every refresh that
// changed the catalog (a new generation). Every directory the scan
// visited is watched, and package directories with all their
// subdirectories, so edits to resources re-hash the package.
func (r *Registry) Watch(ctx context.Context, quiet time.Duration, onChange func()) error {
	if quiet <= 0 {
		quiet = 100 * time.Millisecond
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	watched := map[string]bool{}
	r.syncWatches(w, watched)
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case _, ok := <-w.Events:
			if !ok {
				return nil
			}
			if timer == nil {
				timer = time.After(quiet)
			}
		case _, ok := <-w.Errors:
			if !ok {
				return nil
			}
			// an overflow lost events: a refresh rescans everything
			if timer == nil {
				timer = time.After(quiet)
			}
		case <-timer:
			timer = nil
			before := r.Generation()
			r.Refresh()
			r.syncWatches(w, watched)
			if onChange != nil && r.Generation() != before {
				onChange()
			}
		}
	}
}

// syncWatches adds a watch for every root, scanned directory and package
// subdirectory not watched yet.
func (r *Registry) syncWatches(w *fsnotify.Watcher, watched map[string]bool) {
	add := func(dir string) {
		if !watched[dir] && w.Add(dir) == nil {
			watched[dir] = true
		}
	}
	for _, root := range r.opts.Roots {
		if abs, err := filepath.Abs(root.Dir); err == nil {
			add(existingAncestor(abs))
		}
	}
	for _, d := range r.Dirs() {
		add(d)
	}
	for _, rec := range r.All() {
		if rec.Kind == KindPackage {
			_ = filepath.WalkDir(rec.Root, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					if skipResource(d.Name(), true) {
						return filepath.SkipDir
					}
					add(p)
				}
				return nil
			})
		}
	}
}

// existingAncestor returns dir, or its nearest existing ancestor when dir
// does not exist yet (a user without ~/.agents/skills), so that creating
// the root is noticed.
func existingAncestor(dir string) string {
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}
