package host

// Source names where a resolved setting came from.
type Source string

// The sources of a setting, strongest first.
const (
	FromFlag    Source = "flag"
	FromEnv     Source = "env"
	FromConfig  Source = "config"
	FromDefault Source = "default"
)

// Layers are the candidate values of one setting: the command-line flag
// (when given), the environment variable (when set and not empty), the
// configuration file's value (when not empty) and the default.
type Layers struct {
	Flag    string
	FlagSet bool
	Env     string
	EnvSet  bool
	Config  string
	Default string
}

// Resolve decides a setting the one way every host setting is decided:
// flag > environment > configuration file > default. An environment
// variable set to the empty string counts as unset, as an empty value in
// the configuration file does; a flag given as empty is kept (it is how
// an operator clears a setting for one command).
func Resolve(l Layers) (string, Source) {
	switch {
	case l.FlagSet:
		return l.Flag, FromFlag
	case l.EnvSet && l.Env != "":
		return l.Env, FromEnv
	case l.Config != "":
		return l.Config, FromConfig
	}
	return l.Default, FromDefault
}
