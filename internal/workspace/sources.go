package workspace

import (
	"path/filepath"
	"sync"
)

// Sources reads each file once for a whole command: the command's own
// read of a skill and the skill-directory index of its environment
// (LoadOptions.ReadSource) get the same bytes, whichever asks first.
// Failed reads are not kept: the next caller tries again. A
// one-shot command that keeps its sources anyway (skillc check) uses it; a
// long-running process must not, since it never forgets a file. It is
// safe for concurrent use.
type Sources struct {
	read func(path string) ([]byte, error)
	abs  func(path string) (string, error)

	mu    sync.Mutex
	files map[string]*sourceRead
	done  bool
}

// sourceRead is one file's bytes, once a read of it succeeded.
type sourceRead struct {
	mu  sync.Mutex
	ok  bool
	src []byte
}

// NewSources returns a cache reading with read (which may refuse files
// by rules of its own, such as a size limit) and naming each file by its
// absolute, clean path from abs (filepath.Abs or a form of it with the
// working directory read once), so that a relative argument and the
// index's path of the same file share one read.
func NewSources(read func(path string) ([]byte, error), abs func(path string) (string, error)) *Sources {
	return &Sources{read: read, abs: abs, files: make(map[string]*sourceRead, 64)}
}

// Read returns the bytes of the file at path from the first read of it
// that succeeded; until one has, each call reads the file itself (by
// its own path, so that an error names the path the caller gave).
// Callers must not modify the bytes.
func (c *Sources) Read(path string) ([]byte, error) {
	key, err := c.abs(path)
	if err != nil {
		key = filepath.Clean(path)
	}
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return c.read(path)
	}
	f, ok := c.files[key]
	if !ok {
		f = &sourceRead{}
		c.files[key] = f
	}
	c.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ok {
		return f.src, nil
	}
	src, err := c.read(path)
	if err == nil {
		f.ok, f.src = true, src
	}
	return src, err
}

// Done ends the sharing: the bytes held are released and every later
// Read reads the file again (a command that may rewrite its files, such
// as skillc check --fix, calls it once its reads of the originals are
// over).
func (c *Sources) Done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done, c.files = true, nil
}
