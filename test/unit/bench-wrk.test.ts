// The bench's wrk driver (bench/wrk.ts, bench/wrk-requests.lua): the requests a load draws
// reach the server as drawn (method, path, headers, body), no write is sent twice, and what
// the server refuses is counted as errors. Skipped where wrk is not installed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { runWrk, wrkAvailable } from "../../bench/wrk.js";
import type { Load, Meter, Request } from "../../bench/load.js";

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

/** A server that notes each request and answers 404 for paths under /missing/. */
async function noting(): Promise<{ origin: string; seen: Seen[]; close: () => void }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, contentType: req.headers["content-type"], body });
      res.writeHead(req.url!.startsWith("/missing/") ? 404 : req.method === "POST" ? 201 : 200, { "Content-Type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

const meter: Meter = { begin: async () => undefined, end: async () => ({ statements: 0, roundTrips: 0, peakRss: 0 }) };

const load = (next: () => Request): Load & { meter: Meter } => ({
  next, headers: { Authorization: "Token t0k3n", Accept: "application/json" }, concurrency: 2, requests: 0, seconds: 1, warmup: 0, meter,
});

describe("bench: the wrk driver", function () {
  this.timeout(30000);
  before(function () {
    if (!wrkAvailable()) this.skip();
  });

  it("sends the drawn reads with the load's headers, going round them", async () => {
    const server = await noting();
    try {
      let n = 0;
      const result = await runWrk(load(() => ({ method: "GET", url: `${server.origin}/pages/?page=${n++ % 3}`, expect: 200 })));
      expect(result.errors).to.equal(0);
      expect(result.requests).to.be.above(3);
      expect(result.p50).to.be.above(0).and.at.most(result.p99);
      const urls = new Set(server.seen.map((s) => s.url));
      expect([...urls].sort()).to.deep.equal(["/pages/?page=0", "/pages/?page=1", "/pages/?page=2"]);
      expect(server.seen.every((s) => s.method === "GET" && s.authorization === "Token t0k3n" && s.body === "")).to.equal(true);
    } finally {
      server.close();
    }
  });

  it("sends each drawn write once, with its JSON body", async () => {
    const server = await noting();
    try {
      let n = 0;
      const result = await runWrk(load(() => ({ method: "POST", url: `${server.origin}/things/`, body: JSON.stringify({ n: n++, note: "tab\there" }), expect: 201 })));
      expect(result.errors).to.equal(0);
      const bodies = server.seen.map((s) => JSON.parse(s.body) as { n: number; note: string });
      expect(bodies.length).to.be.above(0);
      expect(new Set(bodies.map((b) => b.n)).size).to.equal(bodies.length);
      expect(bodies.every((b) => b.note === "tab\there")).to.equal(true);
      expect(server.seen.every((s) => s.contentType === "application/json")).to.equal(true);
    } finally {
      server.close();
    }
  });

  it("counts answers that are not 2xx as errors", async () => {
    const server = await noting();
    try {
      const result = await runWrk(load(() => ({ method: "GET", url: `${server.origin}/missing/`, expect: 200 })));
      expect(result.requests).to.be.above(0);
      expect(result.errors).to.equal(result.requests);
      expect(result.firstError).to.match(/not 2xx or 3xx/);
    } finally {
      server.close();
    }
  });
});
