package lint

import "github.com/skillscript/skillc/ast"

// ShellBinary returns the binary a shell(...) op runs ("bash" for
// unsafe=true); ok is false when the binary is dynamic or absent. It is
// the reading the shell allowlist rules use, exported for footprints and
// shell audits.
func ShellBinary(c *ast.CallStmt) (string, bool) {
	bin, _, ok := shellBinary(c)
	return bin, ok
}
