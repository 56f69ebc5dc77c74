// STATEMENT_TIMEOUT for REST and calendar reads: an app instance of its own over the shared
// test database whose reads may run 1 ms. PostgreSQL cancels what runs longer, and each API
// answers the cancellation as a 503 in its own error format, never a 500; writes are not bounded.
// PostgreSQL only: the embedded database runs in the process and cannot be interrupted.
import { expect } from "chai";
import { ownInstance, startTestServer, type OwnInstance } from "../support/server.js";
import { eventually } from "../support/waiting.js";
import { uniq } from "./inventory/support.js";

describe("STATEMENT_TIMEOUT on reads", function () {
  this.timeout(240_000);
  let own: OwnInstance | undefined;
  let base = "";
  let token = "";

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    token = (await startTestServer()).token;
    own = await ownInstance({ statementTimeoutMs: 1 });
    base = own.base;
  });
  after(async () => {
    await own?.close();
  });

  /** Asks until one answer is not a 200 (a cancelled statement); gives it. */
  const cancelled = (path: string, headers: Record<string, string>) => eventually(async () => {
    const res = await fetch(`${base}${path}`, { headers });
    expect(res.status, "a read either ends or is cancelled").to.be.oneOf([200, 503]);
    return res.status === 503 ? { body: await res.json() as Record<string, any>, retryAfter: res.headers.get("retry-after") } : undefined;
  }, `a cancelled read of ${path}`);

  it("a REST read past it is a 503 with DRF's detail, and no Retry-After", async () => {
    const { body, retryAfter } = await cancelled("/api/dcim/devices/?limit=50", { Authorization: `Token ${token}`, Accept: "application/json" });
    expect(body).to.deep.equal({ detail: "The query took longer than 0.001 s and was cancelled; narrow it with filters or a smaller limit." });
    expect(retryAfter).to.equal(null);
  });

  it("a calendar read past it is a 503 in WordPress's error shape", async () => {
    const { body } = await cancelled("/wp-json/calendar/events/v1/events?per_page=50", {});
    expect(body.code).to.equal("rest_query_timeout");
    expect(body.data.status).to.equal(503);
  });

  it("does not bound writes", async () => {
    const name = uniq("timeout-write");
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/api/tenancy/tenants/`, {
        method: "POST", headers: { Authorization: `Token ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: `${name}-${i}`, slug: `${name}-${i}` }),
      });
      expect(res.status, await res.text()).to.equal(201);
    }
  });
});
