package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/skillscript/skillc/ast"
)

// MaxFileSize bounds the configuration files Load reads.
const MaxFileSize = 4 << 20

// discover finds the configuration and connectors files.
func (l *loader) discover() {
	l.cfg.ConfigPath = l.find(l.opts.ConfigPath, ConfigFileName)
	l.cfg.ConnectorsPath = l.find(l.opts.ConnectorsPath, ConnectorsFileName)
	l.cfg.ConfigTrusted = l.cfg.ConfigPath != "" && (l.opts.ConfigPath != "" || within(l.cfg.ConfigPath, l.cfg.Home))
	l.cfg.ConnectorsTrusted = l.cfg.ConnectorsPath != "" && (l.opts.ConnectorsPath != "" || within(l.cfg.ConnectorsPath, l.cfg.Home))
}

// within reports whether path lies in dir (both cleaned; dir non-empty).
func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// find returns the explicit path, else the nearest file called name in
// StartDir or one of its parents, else the one in SKILLSCRIPT_HOME, else "".
func (l *loader) find(explicit, name string) string {
	if explicit != "" {
		return explicit
	}
	if l.opts.StartDir != "" {
		dir := filepath.Clean(l.opts.StartDir)
		for {
			if p := filepath.Join(dir, name); l.isFile(p) {
				return p
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if l.cfg.Home != "" {
		if p := filepath.Join(l.cfg.Home, name); l.isFile(p) {
			return p
		}
	}
	return ""
}

// isFile reports whether path exists and is not a directory.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// isFile is isFile through the load's FileProbe, when it has one.
func (l *loader) isFile(path string) bool {
	if l.opts.Probe == nil {
		return isFile(path)
	}
	return l.opts.Probe.IsFile(path)
}

// FileProbe remembers, for the life of one command, whether each path
// asked about is a file. Loads for sibling directories share their
// parents' candidates (skillscript.config.json, connectors.json, .env),
// so a check of many folders stats each candidate once. A file created
// after the first question is not seen: a long-running process does not
// use one. Safe for concurrent use.
type FileProbe struct {
	mu    sync.Mutex
	known map[string]bool
}

// NewFileProbe returns an empty probe.
func NewFileProbe() *FileProbe { return &FileProbe{known: map[string]bool{}} }

// IsFile reports whether path exists and is not a directory, asking the
// file system the first time only.
func (p *FileProbe) IsFile(path string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	is, ok := p.known[path]
	if !ok {
		is = isFile(path)
		p.known[path] = is
	}
	return is
}

// loadDotenv loads the .env files beside the configuration file, beside the
// connectors file and in SKILLSCRIPT_HOME, in that order of precedence. A
// .env beside a project-local file is not read, with a warning: it could
// set the shell allowlist or feed ${VAR} in the operator's connectors.json
// (DECISIONS 25).
func (l *loader) loadDotenv() {
	var dirs, skipped []string
	add := func(list *[]string, d string) {
		if d != "" && !contains(*list, filepath.Clean(d)) {
			*list = append(*list, filepath.Clean(d))
		}
	}
	for _, f := range []struct {
		path    string
		trusted bool
	}{{l.cfg.ConfigPath, l.cfg.ConfigTrusted}, {l.cfg.ConnectorsPath, l.cfg.ConnectorsTrusted}} {
		if f.trusted {
			add(&dirs, dirOf(f.path))
		} else {
			add(&skipped, dirOf(f.path))
		}
	}
	add(&dirs, l.cfg.Home)
	for _, d := range skipped {
		if p := filepath.Join(d, DotenvFileName); !contains(dirs, d) && l.isFile(p) {
			l.problems.add(p, diagAt(ast.Warning, nil, -1, "not read: a .env beside a project-local configuration could set security policy; put the variables in the environment or in $SKILLSCRIPT_HOME/.env"))
		}
	}
	for _, d := range dirs {
		path := filepath.Join(d, DotenvFileName)
		if !l.isFile(path) {
			continue
		}
		data, ok := l.read(path)
		if !ok {
			continue
		}
		vars, problems := ParseDotenv(data)
		l.problems.add(path, problems...)
		l.addLayer(path, vars)
	}
}

// addLayer records a loaded .env file; SKILLSCRIPT_HOME cannot be set there.
func (l *loader) addLayer(path string, vars []DotenvVar) {
	layer := dotenvLayer{path: path, vars: map[string]DotenvVar{}}
	for _, v := range vars {
		if v.Key == "SKILLSCRIPT_HOME" {
			l.problems.add(path, diagAtLine(ast.Warning, l.problems.srcs[path], v.Line,
				"SKILLSCRIPT_HOME cannot be set in a .env file (it locates the .env file); set it in the environment"))
			continue
		}
		layer.vars[v.Key] = v
	}
	l.env.layers = append(l.env.layers, layer)
	l.cfg.EnvFiles = append(l.cfg.EnvFiles, path)
}

// readConnectors reads connectors.json without interpreting it.
func (l *loader) readConnectors() {
	if l.cfg.ConnectorsPath == "" {
		return
	}
	if data, ok := l.read(l.cfg.ConnectorsPath); ok {
		l.cfg.Connectors = data
	} else {
		l.cfg.ConnectorsPath = ""
	}
}

// readConfig reads and parses skillscript.config.json.
func (l *loader) readConfig() *configFile {
	empty := &configFile{values: map[string]fileValue{}}
	if l.cfg.ConfigPath == "" {
		return empty
	}
	data, ok := l.read(l.cfg.ConfigPath)
	if !ok {
		l.cfg.ConfigPath = ""
		return empty
	}
	cf, problems := parseConfigFile(l.cfg.ConfigPath, data, l.cfg.Getenv, l.opts.Home)
	l.problems.add(l.cfg.ConfigPath, problems...)
	return cf
}

// read reads a file of at most MaxFileSize bytes, reporting any failure.
func (l *loader) read(path string) ([]byte, bool) {
	data, err := readLimited(path)
	if err != nil {
		l.problems.add(path, diagAt(ast.Error, nil, -1, "%v", err))
		return nil, false
	}
	l.problems.source(path, data)
	return data, true
}

// readLimited reads path, refusing directories and files over MaxFileSize.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, describeOpenError(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("is a directory, not a file")
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read: %v", unwrapPath(err))
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("file is larger than %d bytes", MaxFileSize)
	}
	return data, nil
}

// describeOpenError turns an open error into a short lower-case message.
func describeOpenError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("file does not exist")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	return fmt.Errorf("cannot open: %v", unwrapPath(err))
}

// unwrapPath drops the path from a *fs.PathError, which the diagnostics' file already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
