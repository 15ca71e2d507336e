// Independent Ed25519 signer/verifier for skillc's approval tests, written
// against Node's crypto module and the signing-input rule stated in the
// issue (normalize CR/CRLF, drop Status and Tags lines, join with "\n").
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { readFileSync } from "node:fs";

function canonical(text) {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/\r/g, "\n")
    .split("\n")
    .filter((l) => !/^\s*#\s*Status\s*:/i.test(l))
    .filter((l) => !/^\s*#\s*Tags\s*:/i.test(l))
    .join("\n");
}

// usage: node interop.mjs sign KEY.pem SKILL...        -> one token per line
//        node interop.mjs verify PUB.pem SKILL TOKEN... -> valid/invalid per line
const [cmd, keyFile, ...rest] = process.argv.slice(2);
const bodyOf = (f) => Buffer.from(canonical(readFileSync(f, "utf8")), "utf8");
if (cmd === "sign") {
  const key = createPrivateKey(readFileSync(keyFile));
  for (const f of rest) console.log("v3:" + sign(null, bodyOf(f), key).toString("base64url"));
} else if (cmd === "verify") {
  const key = createPublicKey(readFileSync(keyFile));
  for (let i = 0; i < rest.length; i += 2) {
    const token = rest[i + 1];
    const ok = token.startsWith("v3:") && verify(null, bodyOf(rest[i]), key, Buffer.from(token.slice(3), "base64url"));
    console.log(ok ? "valid" : "invalid");
  }
} else {
  console.error("usage: interop.mjs sign|verify ...");
  process.exit(2);
}
