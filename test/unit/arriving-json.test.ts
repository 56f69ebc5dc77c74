// Sending an answer whose middle is still arriving (runtime/http/json-text.ts): whole with its
// length when short; in chunks when long; and when the pieces stop after the answer began,
// the failure logged under the request's id and the connection cut.
import type { AddressInfo } from "node:net";
import { request } from "node:http";
import { expect } from "chai";
import express from "express";
import { sendArrivingJson } from "../../runtime/http/json-text.js";
import { Arriving, ArrivingJsonText } from "../../runtime/query/json-text.js";

/** Serves one answer made by `feed` (given the pieces to fill) and reads it as a client would. */
async function exchange(feed: (pieces: Arriving) => void): Promise<{ headers: Record<string, unknown>; body: string; cut: boolean }> {
  const app = express();
  app.get("/", (req, res, next) => {
    const pieces = new Arriving();
    sendArrivingJson(res, 200, new ArrivingJsonText("[", pieces, "]")).catch(next);
    setImmediate(() => feed(pieces));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    return await new Promise((resolve, reject) => {
      const req = request({ port: (server.address() as AddressInfo).port, path: "/" }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => { body += chunk; });
        res.on("end", () => resolve({ headers: res.headers, body, cut: false }));
        res.on("error", () => resolve({ headers: res.headers, body, cut: true }));
        res.on("aborted", () => resolve({ headers: res.headers, body, cut: true }));
      });
      req.on("error", reject);
      req.end();
    });
  } finally {
    server.close();
  }
}

describe("unit: sending arriving JSON", () => {
  it("sends a short answer whole, with its length", async () => {
    const got = await exchange((p) => { p.give("1,2"); p.end(); });
    expect(got.body).to.equal("[1,2]");
    expect(got.headers["content-length"]).to.equal("5");
  });

  it("sends a long answer in chunks as it arrives", async () => {
    const piece = `"${"x".repeat(16_382)}"`;
    const got = await exchange((p) => {
      for (let n = 0; n < 20; n++) p.give(n ? `,${piece}` : piece);
      p.end();
    });
    expect(got.headers["transfer-encoding"]).to.equal("chunked");
    expect(JSON.parse(got.body)).to.have.length(20);
  });

  it("logs a failure after the answer began and cuts the connection", async () => {
    const logged: unknown[][] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => { logged.push(args); };
    try {
      const got = await exchange((p) => {
        p.give(`"${"x".repeat(300_000)}"`);
        setImmediate(() => p.fail(new Error("the rows stopped")));
      });
      expect(got.cut || !got.body.endsWith("]"), "the client cannot take the part for the whole").to.equal(true);
      expect(() => JSON.parse(got.body)).to.throw();
    } finally {
      console.error = error;
    }
    expect(logged).to.have.length(1);
    expect(String(logged[0][0])).to.match(/^request \S+ failed: GET \//);
    expect((logged[0][1] as Error).message).to.equal("the rows stopped");
  });
});
