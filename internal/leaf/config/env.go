package config

import (
	"fmt"
	"regexp"
	"strings"
)

// dotenvLayer is one loaded .env file.
type dotenvLayer struct {
	path string
	vars map[string]DotenvVar
}

// environment looks variables up in the real environment first, then in the
// loaded .env files, most specific first.
type environment struct {
	real   func(string) (string, bool)
	layers []dotenvLayer
}

// source says where a value came from: an environment variable, a line of a
// .env file, or a member of the configuration file.
type source struct {
	Env  string // variable name, for the environment and .env files
	File string // .env or configuration file
	Line int    // line in File
	Key  string // member of the configuration file, dotted
}

// String formats s for Config.Origins.
func (s source) String() string {
	switch {
	case s.Key != "":
		return fmt.Sprintf("%s (%s)", s.File, s.Key)
	case s.File != "":
		return fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Env)
	case s.Env != "":
		return "environment (" + s.Env + ")"
	}
	return "default"
}

// lookup returns the value of name and where it came from.
func (e *environment) lookup(name string) (string, source, bool) {
	if v, ok := e.real(name); ok {
		return v, source{Env: name}, true
	}
	for _, l := range e.layers {
		if v, ok := l.vars[name]; ok {
			return v.Value, source{Env: name, File: l.path, Line: v.Line}, true
		}
	}
	return "", source{}, false
}

// get is lookup without the origin.
func (e *environment) get(name string) (string, bool) {
	v, _, ok := e.lookup(name)
	return v, ok
}

// varRef matches a ${NAME} reference.
var varRef = regexp.MustCompile(`\$\{([^{}]*)\}`)

// substitute replaces every ${NAME} in s using get. It returns the names
// that could not be resolved (and leaves those references in place).
func substitute(s string, get func(string) (string, bool)) (string, []string) {
	var missing []string
	out := varRef.ReplaceAllStringFunc(s, func(ref string) string {
		name := strings.TrimSpace(ref[2 : len(ref)-1])
		if v, ok := get(name); ok && validEnvName(name) {
			return v
		}
		missing = append(missing, name)
		return ref
	})
	return out, missing
}
