package lsp

import (
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// closedDebounce is the quiet time before the workspace's closed files are
// checked again after a change.
const closedDebounce = 200 * time.Millisecond

// maxClosedFiles bounds the closed files whose diagnostics are pushed.
const maxClosedFiles = 200

// closedState tracks the diagnostics pushed for files that are not open
// (under Server.closedMu).
type closedState struct {
	timer *time.Timer
	sent  map[string]bool // URIs with diagnostics on show
}

// scheduleClosedScan checks the workspace's skill files that are not open
// after closedDebounce, for a client that takes pushed diagnostics only:
// it would otherwise see nothing of the files it has not opened. A client
// that pulls gets them from workspace/diagnostic.
func (s *Server) scheduleClosedScan() {
	s.mu.Lock()
	pull := s.client.pull
	s.mu.Unlock()
	if pull {
		return
	}
	s.closedMu.Lock()
	defer s.closedMu.Unlock()
	if s.closed.timer != nil {
		s.closed.timer.Stop()
	}
	s.closed.timer = time.AfterFunc(closedDebounce, func() {
		defer s.recoverPublish("closed files")
		s.scanClosed()
	})
}

// scanClosed publishes the diagnostics of each closed skill file of the
// workspace that has an error (at most maxClosedFiles of them) and clears
// those of the files fixed or gone since.
func (s *Server) scanClosed() {
	if s.ctx == nil || s.ctx.Err() != nil {
		return
	}
	show := map[string][]protocol.Diagnostic{}
	for _, path := range s.ws.skillFiles() {
		if len(show) >= maxClosedFiles || s.ctx.Err() != nil {
			break
		}
		u := fileURI(path)
		if s.isOpen(u) {
			continue
		}
		s.analyses <- struct{}{}
		diags, err := s.diskDiagnostics(u)
		<-s.analyses
		if err != nil || !hasError(diags) {
			continue
		}
		show[u] = diags
	}
	s.closedMu.Lock()
	defer s.closedMu.Unlock()
	sent := map[string]bool{}
	for u := range s.closed.sent {
		if _, ok := show[u]; !ok {
			s.publishClosed(u, []protocol.Diagnostic{})
		}
	}
	for u, diags := range show {
		if s.publishClosed(u, diags) {
			sent[u] = true
		}
	}
	s.closed.sent = sent
}

// publishClosed pushes the diagnostics of a file unless it is open (its
// buffer's diagnostics win); it reports whether it sent them.
func (s *Server) publishClosed(u string, diags []protocol.Diagnostic) bool {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if s.isOpen(u) {
		return false
	}
	s.notify("textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{URI: uri.URI(u), Diagnostics: diags})
	return true
}

// isOpen reports whether the document u is open.
func (s *Server) isOpen(u string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[u] != nil
}

// hasError reports whether one of diags is an error.
func hasError(diags []protocol.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == protocol.DiagnosticSeverityError {
			return true
		}
	}
	return false
}
