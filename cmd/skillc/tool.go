package main

import "github.com/skillscript/skillc/internal/format/render"

// toolInfo describes skillc for SARIF output.
func toolInfo() render.ToolInfo {
	return render.ToolInfo{Name: "skillc", Version: version, InformationURI: "https://github.com/skillscript/skillc", Rules: ruleMetas()}
}
