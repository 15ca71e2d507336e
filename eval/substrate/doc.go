// Package substrate groups the bundled implementations of the contracts in
// eval/contract: MCP connectors (mcp), local models (model), the embedded
// SQLite data store (datastore), skill stores (skillstore), agent
// connectors (agent), and the wiring that builds a contract.Registry from
// connectors.json (wire).
package substrate
