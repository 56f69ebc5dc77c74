// A validating proxy in front of the real server: Prism (`prism proxy --errors`) loads the
// document the server serves and judges every request and reply against it. A bulk create, a
// brief list and a bulk PATCH pass untouched; a bulk element the document refuses never reaches
// the server. This is what a team that puts Prism (or any OpenAPI gateway) before the API sees.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { startTestServer } from "../../support/server.js";
import { rows, uniq } from "./support.js";

const MANUFACTURERS = "/api/dcim/manufacturers/";

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Starts Prism proxying to `upstream`, validating against the document at `documentUrl`; resolves once it listens. */
async function startPrism(documentUrl: string, upstream: string, port: number): Promise<ChildProcess> {
  const child = spawn("node_modules/.bin/prism", ["proxy", "--errors", "-h", "127.0.0.1", "-p", String(port), documentUrl, upstream], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((ready, failed) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) ready();
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.on("exit", (code) => failed(new Error(`prism exited with ${code}:\n${output.slice(-2000)}`)));
  });
  return child;
}

describe("inventory e2e: Prism validates exchanges against the served document", function () {
  this.timeout(240_000);
  let prism: ChildProcess | undefined;
  let base = "";
  let token = "";

  before(async () => {
    const server = await startTestServer();
    token = server.token;
    const port = await freePort();
    prism = await startPrism(`${server.url}/api/swagger.json`, server.url, port);
    base = `http://127.0.0.1:${port}`;
  });

  after(() => {
    prism?.kill();
  });

  async function through(method: string, path: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Token ${token}`, Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, violations: res.headers.get("sl-violations"), body: await res.json() as any };
  }

  it("passes a bulk create, a brief list and a bulk PATCH with no violation", async () => {
    const slug = uniq("prism");
    const created = await through("POST", MANUFACTURERS, [1, 2].map((n) => ({ name: `${slug} ${n}`, slug: `${slug}-${n}` })));
    expect(created.violations).to.equal(null);
    expect(created.status).to.equal(201);
    expect(created.body).to.have.length(2);

    const brief = await through("GET", `${MANUFACTURERS}?brief=1&limit=5`);
    expect(brief.violations).to.equal(null);
    expect(brief.status).to.equal(200);
    expect(Object.keys(brief.body.results[0]).sort()).to.deep.equal(["devicetype_count", "display", "id", "name", "slug", "url"]);

    const patched = await through("PATCH", MANUFACTURERS, created.body.map((m: { id: string }) => ({ id: m.id, description: "patched through prism" })));
    expect(patched.violations).to.equal(null);
    expect(patched.status).to.equal(200);
    expect(await rows("dcim_manufacturer", { description: "patched through prism" })).to.equal(2);
  });

  it("stops a bulk create the document refuses before it reaches the server", async () => {
    const slug = uniq("prism-bad");
    const refused = await through("POST", MANUFACTURERS, [{ slug }]);
    expect(refused.status).to.equal(422);
    expect(await rows("dcim_manufacturer", { slug })).to.equal(0);
  });
});
