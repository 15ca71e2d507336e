package lsp

import (
	"os"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
)

// maxRelatedFile bounds the size of a file read from disk only to place a
// related location.
const maxRelatedFile = 8 << 20

// linesOf returns the line table of the file at path: the open document's
// text when the editor has it open, else the file on disk (an empty table
// when it cannot be read).
func (s *Server) linesOf(path string) *ast.LineTable {
	s.mu.Lock()
	d := s.docs[fileURI(path)]
	var lines *ast.LineTable
	if d != nil {
		lines = d.lines
	}
	s.mu.Unlock()
	if lines != nil {
		return lines
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() <= maxRelatedFile {
		if src, err := os.ReadFile(path); err == nil {
			return ast.NewLineTable(src)
		}
	}
	return ast.NewLineTable(nil)
}

// envFiles returns the diagnostics of the configuration files of env, one
// entry per file it read (an empty entry clears earlier diagnostics of a
// file that is fine now). Problems of the process environment have no
// file to be published against and are left out.
func envFiles(env *Env) []ast.FileDiagnostics {
	if env == nil || env.Env == nil || env.Config == nil {
		return nil
	}
	byFile := map[string]ast.FileDiagnostics{}
	var order []string
	add := func(fd ast.FileDiagnostics) {
		if fd.File == "" {
			return
		}
		if prev, ok := byFile[fd.File]; ok {
			prev.Diags = append(prev.Diags, fd.Diags...)
			if prev.Src == nil {
				prev.Src = fd.Src
			}
			byFile[fd.File] = prev
			return
		}
		byFile[fd.File] = fd
		order = append(order, fd.File)
	}
	for _, fd := range env.ConfigDiagnostics {
		add(fd)
	}
	add(env.ConnectorDiagnostics)
	for _, f := range append([]string{env.Config.ConfigPath, env.Config.ConnectorsPath}, env.Config.EnvFiles...) {
		add(ast.FileDiagnostics{File: f})
	}
	out := make([]ast.FileDiagnostics, len(order))
	for i, f := range order {
		out[i] = byFile[f]
	}
	return out
}

// publishEnv publishes the diagnostics of the configuration files behind
// a document's environment (skillscript.config.json, .env files,
// connectors.json) against those files, once per loaded environment, so
// the editor shows what `skillc check` reports about them.
func (s *Server) publishEnv(snap *snapshot) {
	files := envFiles(snap.env)
	if len(files) == 0 {
		return
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if s.envGen != snap.gen || s.envSent == nil {
		s.envGen, s.envSent = snap.gen, map[*Env]bool{}
	}
	if s.envSent[snap.env] {
		return
	}
	s.envSent[snap.env] = true
	for _, fd := range files {
		lines := ast.NewLineTable(fd.Src)
		u := fileURI(fd.File)
		diags := make([]protocol.Diagnostic, 0, len(fd.Diags))
		for _, d := range fd.Diags {
			diags = append(diags, s.lspDiagnosticIn(u, lines, d))
		}
		s.notify("textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{URI: uri.URI(u), Diagnostics: diags})
	}
}
