// The bench's CPU meter (bench/cpu.ts): /proc's stat lines read whatever a process is named,
// a process's CPU grows as it works, and PostgreSQL's is read only where the bench says its
// server is this machine's: the backend that ran a statement counted in it, and a backend that
// ends during a span taking none of what it spent before it off the span's time.
import { readFileSync } from "node:fs";
import { expect } from "chai";
import pg from "pg";
import { CLOCK_TICKS, measureLocalPostgres, onThisMachine, parseStat, postgresSpan, processCpu } from "../../bench/cpu.js";

const onLinux = (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

/** Works until `reading` has grown by `by` from where it was, or 20 s have gone; gives the two readings. */
async function working(reading: () => number | undefined, work: () => Promise<void> | void, by: number): Promise<[number, number]> {
  const first = reading()!;
  const until = Date.now() + 20000;
  let now = first;
  while (now - first < by && Date.now() < until) {
    await work();
    now = reading()!;
  }
  return [first, now];
}

describe("bench CPU meter", () => {
  it("reads a stat line whose process name holds spaces and parentheses", () => {
    const fields = ["S", "1", "1", "1", "0", "-1", "4194304", "10", "0", "0", "0", String(3 * CLOCK_TICKS), String(CLOCK_TICKS / 2), "0", "0"];
    const parsed = parseStat(`4321 (post gres) (x)) ${fields.join(" ")}\n`);
    expect(parsed.name).to.equal("post gres) (x)");
    expect(parsed.seconds).to.equal(3.5);
  });

  (onLinux ? it : it.skip)("sees this process's CPU grow as it works", async () => {
    let sink = 0;
    const [before, after] = await working(() => processCpu(process.pid), () => {
      for (let n = 0; n < 5e6; n++) sink += Math.sqrt(n);
    }, 0.05);
    expect(sink).to.be.greaterThan(0);
    expect(after - before).to.be.at.least(0.05);
  });

  it("takes a database URL on loopback or a socket for this machine's, any other host for elsewhere", () => {
    for (const url of ["postgresql://postgres@127.0.0.1:5432/test", "postgres://u@localhost/db", "postgres://u@[::1]:5432/db",
      "postgres:///db", "postgres://u@/db?host=/var/run/postgresql"]) expect(onThisMachine(url), url).to.equal(true);
    for (const url of ["postgres://u@db.example:5432/db", "postgres://u@10.0.0.5/db", "not a url", ""]) expect(onThisMachine(url), url).to.equal(false);
  });

  it("reads no PostgreSQL CPU unless told the server is this machine's", () => {
    measureLocalPostgres(false);
    expect(postgresSpan()).to.equal(undefined);
  });

  describe("on this machine's PostgreSQL", () => {
    before(function () {
      if (!onLinux || !process.env.DATABASE_URL) this.skip();
    });
    afterEach(() => measureLocalPostgres(false));

    const connected = async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      const backend = Number((await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid);
      const burn = async () => { await client.query("SELECT count(*) FROM generate_series(1, 2000000)"); };
      return { client, backend, burn };
    };

    it("counts the CPU of the backend that ran a statement", async () => {
      const { client, backend, burn } = await connected();
      try {
        measureLocalPostgres(true);
        const span = postgresSpan()!;
        const [before, after] = await working(() => processCpu(backend), burn, 0.05);
        expect(after - before).to.be.at.least(0.05);
        expect(span.end()).to.be.at.least(after - before);
      } finally {
        await client.end();
      }
    });

    it("takes nothing off a span for a backend that ends in it", async () => {
      const { client, backend, burn } = await connected();
      let open = true;
      try {
        // Time spent before the span, which a backend that ends would take off a sum of all.
        await working(() => processCpu(backend), burn, 0.3);
        measureLocalPostgres(true);
        const span = postgresSpan()!;
        await client.end();
        open = false;
        const gone = Date.now() + 10000;
        while (processCpu(backend) !== undefined && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(processCpu(backend)).to.equal(undefined);
        expect(span.end()).to.be.at.least(0);
      } finally {
        if (open) await client.end();
      }
    });
  });
});
