// A recording proxy for client sessions: forwards every request to an upstream (the server,
// or a validating proxy in front of it) and writes each request/response pair to a JSON file
// that test/conformance/sessions.test.ts validates against the emitted documents. Keeps no
// credentials (Authorization is forwarded, never written). Not part of the server.
//
//   node --import tsx test/support/record-session.ts <port> <upstream> <out.json> [<client name>]
//
// <upstream> is a URL, or one per API version (`1.2=http://…,1.3=http://…`, the first the
// default): a validating proxy knows one document, so each version's requests go to its own.
import { createServer, type IncomingMessage } from "node:http";
import { writeFileSync } from "node:fs";
import { OMITTED, type Exchange, type Session } from "./session.js";

const [port, upstream, out, client = "unnamed"] = process.argv.slice(2);
if (!port || !upstream || !out) {
  console.error("usage: record-session.ts <port> <upstream URL> <out.json> [<client name>]");
  process.exit(2);
}

const upstreams = new Map(upstream.split(",").map((u, i) => (u.includes("=") ? u.split("=", 2) as [string, string] : [String(i), u])));
/** The upstream for a request's API version (the Accept header's, else `api_version`). */
function upstreamFor(accept: string | undefined, url: URL): string {
  const version = /version=([\d.]+)/.exec(accept ?? "")?.[1] ?? url.searchParams.get("api_version") ?? "";
  return upstreams.get(version) ?? [...upstreams.values()][0];
}

const session: Session = { client, exchanges: [] };
/** Headers worth keeping: they choose the version, the renderer and how bodies are read. */
const KEPT = ["accept", "content-type", "api-version", "location", "allow"];

const read = (req: IncomingMessage): Promise<Buffer> => new Promise((resolve, reject) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve(Buffer.concat(chunks))).on("error", reject);
});

function parsed(text: string, type: string | null): unknown {
  if (!text) return null;
  if (!type?.includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Bodies past this size (an OpenAPI document) are recorded as their size only. */
const MAX_BODY = 256 * 1024;

const kept = (get: (name: string) => string | null | undefined) =>
  Object.fromEntries(KEPT.map((h) => [h, get(h)]).filter((e): e is [string, string] => typeof e[1] === "string"));

createServer(async (req, res) => {
  const body = await read(req);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
  // requests-based clients send `application/json;`, whose empty parameter some proxies refuse.
  if (headers["content-type"]) headers["content-type"] = headers["content-type"].replace(/;\s*$/, "");
  const target = new URL(req.url!, "http://client");
  const reply = await fetch(new URL(req.url!, upstreamFor(req.headers.accept, target)), { method: req.method, headers, body: body.length ? new Uint8Array(body) : undefined, redirect: "manual" });
  const text = Buffer.from(await reply.arrayBuffer());
  const exchange: Exchange = {
    method: req.method!,
    path: req.url!,
    request: { headers: kept((h) => req.headers[h] as string | undefined), body: parsed(body.toString("utf8"), req.headers["content-type"] ?? null) },
    response: {
      status: reply.status, headers: kept((h) => reply.headers.get(h)),
      body: text.length > MAX_BODY ? { [OMITTED]: text.length } : parsed(text.toString("utf8"), reply.headers.get("content-type")),
    },
  };
  session.exchanges.push(exchange);
  writeFileSync(out, `${JSON.stringify(session, null, 1)}\n`);
  const back: Record<string, string> = {};
  reply.headers.forEach((v, k) => { if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)) back[k] = v; });
  res.writeHead(reply.status, back).end(text);
}).listen(Number(port), "127.0.0.1", () => console.log(`recording ${client} on :${port} → ${upstream} into ${out}`));
