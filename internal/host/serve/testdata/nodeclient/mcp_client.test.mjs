// A Node MCP client (the official @modelcontextprotocol/sdk) against a
// real `skillc serve`: over stdio (spawning `skillc serve --stdio`) and
// over Streamable HTTP (SKILLC_URL, started by the Go test). Exits 0 and
// prints "ok: node mcp client passed" when every check holds.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";

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

// checkSEP2640 drives the MCP Skills extension (SEP-2640) with custom
// requests: the capability, skills/list, skills/get, a skill:// resource
// read, resources/directory/read and -32602 for an unknown skill. The
// name enum of skills_load and the skills_instructions tool are checked
// too.
const Entry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.any()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
});
async function checkSEP2640(transport) {
  const client = await session(transport);
  const ext = client.getServerCapabilities().extensions?.["io.modelcontextprotocol/skills"];
  assert.ok(ext && ext.directoryRead === true, "the skills extension is declared with directoryRead");
  const list = await client.request({ method: "skills/list", params: {} }, z.object({ skills: z.array(Entry) }));
  assert.equal(list.skills.length, 1, "only the SKILL.md package is a SEP-2640 skill (hello is a skillscript)");
  const e = list.skills[0];
  assert.equal(e.uri, "skill://pdf-tools/SKILL.md");
  assert.deepEqual(e.frontmatter, { name: "pdf-tools", description: "Fill and merge PDF forms." });
  assert.deepEqual(e.resources.map((r) => r.uri).sort(), ["skill://pdf-tools/SKILL.md", "skill://pdf-tools/references/guide.md"]);
  for (const r of e.resources) assert.match(r.digest, /^sha256:[0-9a-f]{64}$/);
  const got = await client.request({ method: "skills/get", params: { uri: e.uri } }, z.object({ skill: Entry }));
  assert.deepEqual(got.skill, e, "skills/get returns the skills/list entry");
  const rr = await client.readResource({ uri: "skill://pdf-tools/references/guide.md" });
  assert.equal(rr.contents[0].text, "the guide\n");
  const dir = await client.request({ method: "resources/directory/read", params: { uri: "skill://pdf-tools/references" } },
    z.object({ resources: z.array(z.object({ uri: z.string() }).passthrough()) }));
  assert.deepEqual(dir.resources.map((r) => r.uri), ["skill://pdf-tools/references/guide.md"]);
  await assert.rejects(client.request({ method: "skills/get", params: { name: "nope" } }, z.object({ skill: Entry })),
    (err) => err.code === -32602, "an unknown skill is -32602");
  await assert.rejects(client.readResource({ uri: "skill://pdf-tools/nope.md" }), (err) => err.code === -32602, "an unknown file is -32602");
  const { tools } = await client.listTools();
  const load = tools.find((t) => t.name === "skills_load");
  const en = load.inputSchema.properties.names.items.enum;
  assert.ok(en.includes("pdf-tools") && en.includes("hello") && !en.includes("nope"), `skills_load names carry the visible names as an enum: ${en}`);
  parse(await client.callTool({ name: "skills_load", arguments: { names: ["pdf-tools"] } }));
  const ins = parse(await client.callTool({ name: "skills_instructions", arguments: {} }));
  assert.match(ins.instructions, /<active_skills>[\s\S]*Read references\/guide\.md\./, "skills_instructions holds the active body");
  await client.close();
}

await checkStdio();
await checkHTTP();
await checkAgentSkills();
await checkSEP2640(new StreamableHTTPClientTransport(new URL(url + "/mcp")));
await checkSEP2640(new StdioClientTransport({ command: bin, args: ["serve", "--stdio"], env: { ...process.env, SKILLSCRIPT_HOME: home } }));
console.log("ok: node mcp client passed");
