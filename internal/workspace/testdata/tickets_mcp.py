#!/usr/bin/env python3
"""A minimal MCP server over stdio (newline-delimited JSON-RPC 2.0).

It answers initialize, ping and tools/list. Every tools/call is recorded
in the file named by $CALL_LOG (so a test can prove a warm-up never calls
a tool) and answered with an error. $LIST_LOG, when set, gets one line per
tools/list, so a test can count how often the server was asked.
"""
import json
import os
import sys

TOOLS = [
    {
        "name": "search",
        "description": "Search tickets",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["query"],
        },
    },
    {
        "name": "close_ticket",
        "description": "Close a ticket",
        "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
        },
        "annotations": {"destructiveHint": True},
    },
]


def log(env, line):
    path = os.environ.get(env)
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


def answer(req):
    method = req.get("method")
    if method == "initialize":
        version = req.get("params", {}).get("protocolVersion", "2025-06-18")
        return {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "tickets-py", "version": "1.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        log("LIST_LOG", "tools/list")
        return {"tools": TOOLS}
    if method == "tools/call":
        log("CALL_LOG", json.dumps(req.get("params")))
        return {"content": [{"type": "text", "text": "tool calls are not allowed here"}], "isError": True}
    raise LookupError(method)


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if "id" not in req:
            continue  # a notification
        try:
            resp = {"jsonrpc": "2.0", "id": req["id"], "result": answer(req)}
        except LookupError as e:
            resp = {"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32601, "message": "method not found: %s" % e}}
        sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
