// Package wire builds a contract.Registry from a parsed connectors.json
// (internal/leaf/connectors) and a few settings, filling unconfigured slots
// with the embedded defaults: the SQLite data store at
// $SKILLSCRIPT_HOME/data.db, the filesystem skill store at
// $SKILLSCRIPT_HOME/skills, the NoOp agent connector and an Ollama model
// at OLLAMA_BASE_URL. Health checks of configured components run at build
// time so wiring failures surface at start-up, not at first use.
package wire
