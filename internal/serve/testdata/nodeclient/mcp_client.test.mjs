// A Node MCP client (the official @modelcontextprotocol/sdk) against a
// real `skillc serve`: over stdio (spawning `skillc serve --stdio`) and
// over Streamable HTTP (SKILLC_URL, started by the Go test). Exits 0 and
// prints "ok: node mcp client passed" when every check holds.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const bin = process.env.SKILLC_BIN || "skillc";
const home = process.env.SKILLC_HOME;
const url = process.env.SKILLC_URL;
assert.ok(home, "SKILLC_HOME is required");
assert.ok(url, "SKILLC_URL is required");

// parse returns the JSON text content of a tool result, checking it agrees
// with structuredContent.
function parse(res) {
  const text = res.content.find((c) => c.type === "text").text;
  const body = JSON.parse(text);
  if (!res.isError) assert.deepEqual(res.structuredContent, body, "structuredContent equals the text content");
  return body;
}

async function session(transport) {
  const client = new Client({ name: "skillc-node-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function checkStdio() {
  const client = await session(new StdioClientTransport({
    command: bin, args: ["serve", "--stdio"], env: { ...process.env, SKILLSCRIPT_HOME: home },
  }));
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ["execute_skill", "skill_write", "lint_skill", "skill_list", "runtime_capabilities"]) {
    assert.ok(names.includes(n), `stdio lists ${n}`);
  }
  const ex = parse(await client.callTool({ name: "execute_skill", arguments: { name: "hello", inputs: { WHO: "node" } } }));
  assert.equal(ex.status, "ok");
  assert.equal(ex.output, "Hello, node!");
  await client.close();
}

async function checkHTTP() {
  const client = await session(new StreamableHTTPClientTransport(new URL(url + "/mcp"), {
    requestInit: { headers: { "X-Agent-Id": "node-agent" } },
  }));
  const src = "# Skill: from-node\n# Status: Approved\n# Vars: N=\"1\"\n\nn=${N}\n";
  const w = parse(await client.callTool({ name: "skill_write", arguments: { name: "from-node", source: src } }));
  assert.equal(w.author, "node-agent", "the identity header becomes the author");
  const ex = parse(await client.callTool({ name: "execute_skill", arguments: { name: "from-node", inputs: { N: "7" } } }));
  assert.equal(ex.output, "n=7");
  const lint = parse(await client.callTool({ name: "lint_skill", arguments: { source: "# Skill: x\n\nrun:\n    emit(text=\"${NOPE}\")\ndefault: run\n" } }));
  assert.ok(lint.diagnostics.length > 0 && lint.diagnostics[0].line === 4, "lint_skill reports line 4");
  const missing = await client.callTool({ name: "execute_skill", arguments: { name: "no-such-skill" } });
  assert.equal(missing.isError, true);
  assert.equal(parse(missing).error, "SkillNotFound");
  await assert.rejects(
    client.callTool({ name: "execute_skill", arguments: { name: 5 } }),
    (err) => err.code === -32602 && /name/.test(err.message),
    "a wrongly typed argument is -32602 naming the field",
  );
  await client.close();
}

// checkAgentSkills drives the Agent Skills tools over Streamable HTTP on
// the package the Go test put in the skill store (pdf-tools with
// references/guide.md): load, read, an escape attempt, unload.
async function checkAgentSkills() {
  const client = await session(new StreamableHTTPClientTransport(new URL(url + "/mcp")));
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ["skills_load", "skills_unload", "skills_read"]) {
    assert.ok(names.includes(n), `lists ${n}`);
  }
  assert.ok(!names.includes("skills_run_script"), "skills_run_script is off unless the operator enables it");
  const load = parse(await client.callTool({ name: "skills_load", arguments: { names: ["pdf-tools"] } }));
  const active = load.active_skills.find((s) => s.name === "pdf-tools");
  assert.ok(active, "pdf-tools is active after skills_load");
  assert.match(active.digest, /^sha256:[0-9a-f]{64}$/);
  assert.ok(active.files.some((f) => f.path === "references/guide.md"), "the receipt lists the bundled file");
  const read = parse(await client.callTool({ name: "skills_read", arguments: { skill: "pdf-tools", path: "references/guide.md" } }));
  assert.equal(read.content, "the guide\n");
  for (const path of ["../hello.skill.md", "/etc/passwd"]) {
    const res = await client.callTool({ name: "skills_read", arguments: { skill: "pdf-tools", path } });
    assert.equal(res.isError, true, `skills_read refuses ${path}`);
    assert.equal(parse(res).error, "AgentSkillError", `the refusal of ${path} is typed`);
  }
  const unload = parse(await client.callTool({ name: "skills_unload", arguments: { names: ["pdf-tools"] } }));
  assert.ok(!JSON.stringify(unload).includes('"name":"pdf-tools"'), "pdf-tools is no longer active");
  const after = await client.callTool({ name: "skills_read", arguments: { skill: "pdf-tools", path: "references/guide.md" } });
  assert.equal(after.isError, true, "skills_read needs the skill loaded");
  await client.close();
}

await checkStdio();
await checkHTTP();
await checkAgentSkills();
console.log("ok: node mcp client passed");
