package skillrt

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/skillscript/skillc/internal/host/registry"
)

// ReadInput is the input of skills_read.
type ReadInput struct {
	Skill string `json:"skill,omitempty" jsonschema:"loaded skill to read from; default: the most recently loaded"`
	Path  string `json:"path" jsonschema:"file path relative to the skill's root directory, e.g. references/guide.md"`
}

// ReadOutput is one file of a loaded skill: text, or base64 for binary
// content.
type ReadOutput struct {
	Skill    string `json:"skill"`
	Path     string `json:"path"`
	MIMEType string `json:"mime_type"`
	Encoding string `json:"encoding"` // "text" or "base64"
	Content  string `json:"content"`
	Size     int64  `json:"size"`
}

// Read runs skills_read: the file is opened through an os.Root of the
// package directory, so neither ".." nor a symbolic link can leave it.
func (rt *Runtime) Read(sessionID string, in ReadInput) (ReadOutput, error) {
	rec, err := rt.activeRecord(sessionID, in.Skill)
	if err != nil {
		return ReadOutput{}, err
	}
	if rec.Kind != registry.KindPackage {
		return ReadOutput{}, fmt.Errorf("skill %q is a skillscript; it has no files to read", rec.Name)
	}
	rel, err := localPath(in.Path)
	if err != nil {
		return ReadOutput{}, err
	}
	data, size, err := readInRoot(rec.Root, rel, rt.opts.readLimit())
	if err != nil {
		return ReadOutput{}, err
	}
	out := ReadOutput{Skill: rec.Name, Path: filepath.ToSlash(rel), Size: size, MIMEType: mimeType(rel, data)}
	if utf8.Valid(data) && !strings.ContainsRune(string(data), 0) {
		out.Encoding, out.Content = "text", string(data)
	} else {
		out.Encoding, out.Content = "base64", base64.StdEncoding.EncodeToString(data)
	}
	return out, nil
}

// localPath checks that p is a relative path inside the package and
// returns it in OS form.
func localPath(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("path is empty; pass a file path relative to the skill root, e.g. references/guide.md")
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("path %q is absolute; pass a path relative to the skill root", p)
	}
	clean := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	local := filepath.FromSlash(clean)
	if !filepath.IsLocal(local) {
		return "", fmt.Errorf("path %q leaves the skill root; pass a path inside the skill directory", p)
	}
	return local, nil
}

// readInRoot reads rel under dir through os.Root, refusing files larger
// than limit and anything that is not a regular file.
func readInRoot(dir, rel string, limit int64) ([]byte, int64, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot open the skill root: %v", err)
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read %s: %s", filepath.ToSlash(rel), rootError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if st.IsDir() {
		return nil, 0, fmt.Errorf("%s is a directory; pass a file path (the skills_load receipt lists the files)", filepath.ToSlash(rel))
	}
	if !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file", filepath.ToSlash(rel))
	}
	if st.Size() > limit {
		return nil, 0, fmt.Errorf("%s is %d bytes, over the %d-byte read limit", filepath.ToSlash(rel), st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s grew over the %d-byte read limit", filepath.ToSlash(rel), limit)
	}
	return data, st.Size(), err
}

// rootError words an os.Root refusal without leaking absolute paths.
func rootError(err error) string {
	switch {
	case os.IsNotExist(err):
		return "no such file in the skill"
	case strings.Contains(err.Error(), "escapes") || strings.Contains(err.Error(), "outside"):
		return "the path leads outside the skill root (through a symbolic link)"
	case strings.Contains(err.Error(), "too many links"):
		return "a symbolic link loop"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// mimeType guesses the type from the extension, then the content.
func mimeType(rel string, data []byte) string {
	if t := mime.TypeByExtension(filepath.Ext(rel)); t != "" {
		return t
	}
	switch strings.ToLower(filepath.Ext(rel)) {
	case ".md", ".markdown":
		return "text/markdown; charset=utf-8"
	case ".py":
		return "text/x-python; charset=utf-8"
	case ".sh":
		return "text/x-shellscript; charset=utf-8"
	case ".yaml", ".yml":
		return "application/yaml"
	}
	return http.DetectContentType(data)
}
