// Package lspframe implements the legacy LSP-style stdio framing
// ("Content-Length: N\r\n\r\n<body>") as an MCP transport connection.
package lspframe

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrame bounds one frame body.
const MaxFrame = 64 << 20

// Transport is an mcp.Transport over a reader and writer using LSP framing.
type Transport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
}

// Connect returns the framed connection.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	return NewConn(t.Reader, t.Writer), nil
}

// Conn is an mcp.Connection speaking LSP framing.
type Conn struct {
	r       *bufio.Reader
	rc      io.Closer
	w       io.WriteCloser
	wmu     sync.Mutex
	closeMu sync.Once
	err     error
}

// NewConn returns a connection reading frames from r and writing to w.
func NewConn(r io.ReadCloser, w io.WriteCloser) *Conn {
	return &Conn{r: bufio.NewReader(r), rc: r, w: w}
}

// Read reads one framed message.
func (c *Conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	body, err := ReadFrame(c.r)
	if err != nil {
		return nil, err
	}
	return jsonrpc.DecodeMessage(body)
}

// ReadFrame reads one Content-Length framed body.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	hdr, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(hdr.Get("Content-Length")))
	if err != nil || n < 0 || n > MaxFrame {
		return nil, fmt.Errorf("lsp framing: bad Content-Length %q", hdr.Get("Content-Length"))
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("lsp framing: short body: %w", err)
	}
	return body, nil
}

// Write writes one framed message.
func (c *Conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.w.Write(body)
	return err
}

// Close closes both directions.
func (c *Conn) Close() error {
	c.closeMu.Do(func() {
		werr := c.w.Close()
		rerr := c.rc.Close()
		if werr != nil {
			c.err = werr
		} else {
			c.err = rerr
		}
	})
	return c.err
}

// SessionID returns "" (stdio has no session id).
func (c *Conn) SessionID() string { return "" }
