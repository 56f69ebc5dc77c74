// pynautobot 1.5, unmodified, reaches the BGP models app through `nb.plugins.bgp...`
// (test/clients/pynautobot/bgp_plugin.py), against an instance whose PLUGINS enables it, on the
// shared test server's database. Needs pynautobot's source (PYNAUTOBOT_SRC, default
// /work/clients/pynautobot at v1.5.5) and a Python with requests; skipped without them.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { apis } from "../../../generated/server.js";

const SRC = process.env.PYNAUTOBOT_SRC ?? "/work/clients/pynautobot";
const PYTHON = process.env.PYTHON ?? "/usr/bin/python3";

describe("clients: pynautobot's plugin endpoints (nb.plugins.bgp)", () => {
  let server: Server | undefined;

  after(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("creates, lists, filters, changes and deletes the app's objects", async function () {
    if (!existsSync(`${SRC}/pynautobot/__init__.py`) || !existsSync(PYTHON)) this.skip();
    const shared = await startTestServer();
    const app = createApp(apis, shared.db, { ...configFromEnv(), dataDir: "memory://", logRequests: false, publicUrl: undefined, plugins: ["bgp"] });
    server = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)); });
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    const asn = String(64512 + Math.floor(Math.random() * 1000));
    const env = { ...process.env, PYTHONPATH: SRC, PYTHONDONTWRITEBYTECODE: "1", NAUTOBOT_URL: url, NAUTOBOT_TOKEN: shared.token, BGP_ASN: asn };
    const run = await promisify(execFile)(PYTHON, ["test/clients/pynautobot/bgp_plugin.py"], { env }).catch((err) => err as { stdout: string; stderr: string; code: number });
    const out = `${run.stdout}${run.stderr}`;
    expect("code" in run ? run.code : 0, out).to.equal(0);
    expect(out.split("\n").filter((l) => l.startsWith("ok "))).to.have.length(13);
  });
});
