// The replica settings as configFromEnv reads them, and LSNs compared as numbers.
import { expect } from "chai";
import { configFromEnv } from "../../runtime/config.js";
import { lsnValue } from "../../runtime/db/replicas.js";

describe("unit: replica settings", () => {
  it("default to none, the primary's pool size, a 5 s lag and a 30 s statement timeout", () => {
    const c = configFromEnv({ DATABASE_URL: "postgresql://p/db", DATABASE_POOL_SIZE: "7" });
    expect([c.replicaUrls, c.replicaPoolSize, c.replicaMaxLagMs, c.statementTimeoutMs]).to.deep.equal([[], 7, 5000, 30_000]);
  });

  it("take comma-separated URLs, a pool size, a lag and a timeout in seconds", () => {
    const c = configFromEnv({
      DATABASE_URL: "postgresql://p/db", DATABASE_REPLICA_URLS: " postgresql://r1/db, postgresql://r2/db ,",
      DATABASE_REPLICA_POOL_SIZE: "4", DATABASE_REPLICA_MAX_LAG: "2", STATEMENT_TIMEOUT: "0",
    });
    expect([c.replicaUrls, c.replicaPoolSize, c.replicaMaxLagMs, c.statementTimeoutMs]).to.deep.equal([["postgresql://r1/db", "postgresql://r2/db"], 4, 2000, 0]);
  });

  it("refuse replicas for the embedded database, and a mistyped number", () => {
    expect(() => configFromEnv({ DATABASE_REPLICA_URLS: "postgresql://r1/db" })).to.throw("DATABASE_REPLICA_URLS needs DATABASE_URL");
    expect(() => configFromEnv({ DATABASE_URL: "postgresql://p/db", DATABASE_REPLICA_MAX_LAG: "5s" })).to.throw("DATABASE_REPLICA_MAX_LAG must be a whole number");
  });
});

describe("unit: LSNs", () => {
  it("compare by both halves, the low one as an unsigned 32-bit number", () => {
    expect(lsnValue("0/0")).to.equal(0n);
    expect(lsnValue("1/0") > lsnValue("0/FFFFFFFF")).to.equal(true);
    expect(lsnValue("16/B374D848")).to.equal((0x16n << 32n) + 0xB374D848n);
  });
});
