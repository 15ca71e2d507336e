package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codeRequestCancelled is the LSP error code of a cancelled request.
const codeRequestCancelled jsonrpc2.Code = -32800

// lspCodec marshals payloads with the union-aware protocol codec, like the
// unexported codec protocol.NewServer installs.
type lspCodec struct{}

// Marshal implements jsonrpc2.Codec.
func (lspCodec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

// Unmarshal implements jsonrpc2.Codec.
func (lspCodec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// frameIO is the raw-frame half of the jsonrpc2 header stream.
type frameIO interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

// guardedStream wraps the LSP header stream so that a frame whose body is
// not a JSON-RPC message is answered with a ParseError instead of ending the
// connection (the stock read loop stops at the first decode error).
type guardedStream struct {
	inner jsonrpc2.Stream
	raw   frameIO
	log   func(format string, args ...any)
}

// newGuardedStream returns the LSP-framed stream over rwc.
func newGuardedStream(rwc io.ReadWriteCloser, log func(string, ...any)) (jsonrpc2.Stream, error) {
	inner := jsonrpc2.NewStream(rwc)
	raw, ok := inner.(frameIO)
	if !ok {
		return nil, errors.New("jsonrpc2 header stream has no raw frame access")
	}
	return &guardedStream{inner: inner, raw: raw, log: log}, nil
}

// Read returns the next decodable message, answering undecodable ones.
func (g *guardedStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		frame, n, err := g.raw.ReadFrame(ctx)
		if err != nil {
			return nil, n, err
		}
		msg, derr := jsonrpc2.DecodeMessage(frame)
		if derr == nil {
			return msg, n, nil
		}
		g.log("dropping malformed message: %v", derr)
		if _, werr := g.raw.WriteFrame(ctx, parseErrorFrame(derr)); werr != nil {
			return nil, n, werr
		}
	}
}

// Write implements jsonrpc2.Stream.
func (g *guardedStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return g.inner.Write(ctx, msg)
}

// Close implements jsonrpc2.Stream.
func (g *guardedStream) Close() error { return g.inner.Close() }

// parseErrorFrame is the error response to a message that could not be
// decoded (its id is unknown, hence null).
func parseErrorFrame(err error) []byte {
	msg, _ := json.Marshal(fmt.Sprintf("parse error: %v", err))
	return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":` + string(msg) + `}}`)
}

// stdio joins a reader and a writer into the io.ReadWriteCloser a stream
// needs; Close closes both when they are closers.
type stdio struct {
	io.Reader
	io.Writer
}

// Close implements io.Closer.
func (s stdio) Close() error {
	var errs []error
	if c, ok := s.Reader.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	if c, ok := s.Writer.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// StdioConn joins r (stdin) and w (stdout) into one connection for Serve.
func StdioConn(r io.Reader, w io.Writer) io.ReadWriteCloser { return stdio{r, w} }
