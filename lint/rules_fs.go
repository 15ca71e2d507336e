package lint

import (
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// ruleFSPathNotAllowed reports literal file paths the filesystem
// allowlist the run will use refuses.
func ruleFSPathNotAllowed() *Rule {
	return &Rule{
		ID: "fs-path-not-allowed", Severity: ast.Warning, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "A literal `file_read`/`file_write` path, or `# Output: file:` path, outside the operator's filesystem allowlist (`SKILLSCRIPT_FS_ALLOWLIST`, `fsAllowlist`, `--allow-fs`).",
			Why:     "The filesystem allowlist is default-deny; the runtime refuses the op with PathNotAllowedError, and a policy refusal skips `(fallback:)` and `else:`. The check is lexical (symbolic links inside the path are resolved only at run time).",
			Bad:     "file_read(path=\"/etc/hostname\") -> H   # with fsAllowlist [\"/srv/data\"]\n",
			Good:    "file_read(path=\"/srv/data/report.txt\") -> R\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.FSAllowlistKnown {
				return
			}
			for _, c := range p.st.idx().callsNamedAny("file_read", "file_write") {
				if a := c.Arg("path"); a != nil {
					if v, ok := check.LitString(a.Value); ok {
						fsPathAllowed(p, a.Value, v)
					}
				}
			}
			for _, o := range outputSpecs(p.File) {
				if outputKind(o) != "file" || o.Target == nil {
					continue
				}
				if v, ok := o.Target.LitValue(); ok {
					fsPathAllowed(p, o.Target, strings.TrimSpace(v))
				}
			}
		},
	}
}

// fsPathAllowed reports path (written at n) when no allowlist root holds it.
func fsPathAllowed(p *Pass, n Spanner, path string) {
	if path == "" || pathWithin(p.Ctx.FSBase, path, p.Ctx.FSAllowlist) {
		return
	}
	if len(p.Ctx.FSAllowlist) == 0 {
		p.Reportf(n, "path %s is not allowed: the filesystem allowlist is empty, so every file op is refused (set SKILLSCRIPT_FS_ALLOWLIST, or pass --allow-fs to skillc run)", path)
		return
	}
	p.Reportf(n, "path %s is outside the filesystem allowlist (%s): the run will refuse it", path, strings.Join(p.Ctx.FSAllowlist, ", "))
}

// pathWithin reports whether path (relative paths from base) lies under
// one of roots, lexically.
func pathWithin(base, path string, roots []string) bool {
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	path = filepath.Clean(path)
	for _, r := range roots {
		r = filepath.Clean(r)
		if path == r || r == string(filepath.Separator) || strings.HasPrefix(path, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
