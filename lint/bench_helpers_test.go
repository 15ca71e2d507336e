package lint

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

func syntaxParse(src []byte) (*ast.File, ast.Diagnostics) { return syntax.Parse("gen.skill.md", src) }
func checkFile(f *ast.File) *check.Info                   { return check.Check(f) }
