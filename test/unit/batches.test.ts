// How jobs wait for their batch: one submitted while its key's batch runs joins the next one,
// which takes every job then waiting (up to the bound) in the order they came; keys do not
// wait for each other; a failed job fails alone, a failed batch fails all its jobs.
import { expect } from "chai";
import { Batches, type Outcome } from "../../runtime/batches.js";

/** A batch runner that holds each batch until released, recording the batches it was given. */
function gated() {
  const batches: string[][] = [];
  const gates: Array<() => void> = [];
  const run = async (jobs: string[]): Promise<Array<Outcome<string>>> => {
    batches.push(jobs);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (jobs.includes("crash")) throw new Error("batch failed");
    return jobs.map((j) => (j.startsWith("bad") ? { error: new Error(j) } : { value: j.toUpperCase() }));
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { batches, run, tick, release: async () => { gates.shift()!(); await tick(); } };
}

describe("unit: batches", () => {
  it("runs what arrives during a batch as the next batch, in arrival order, up to the bound", async () => {
    const g = gated();
    const queue = new Batches(g.run, 3);
    const replies = ["a", "b", "c", "d", "e", "f"].map((j) => queue.submit("k", j));
    await g.tick();
    expect(g.batches).to.deep.equal([["a"]]);
    await g.release();
    expect(g.batches).to.deep.equal([["a"], ["b", "c", "d"]]);
    const late = queue.submit("k", "g");
    await g.release();
    expect(g.batches).to.deep.equal([["a"], ["b", "c", "d"], ["e", "f", "g"]]);
    await g.release();
    expect(await Promise.all([...replies, late])).to.deep.equal(["A", "B", "C", "D", "E", "F", "G"]);
    // With nothing waiting the key is idle: the next job starts a batch at once.
    const again = queue.submit("k", "h");
    await g.tick();
    expect(g.batches.at(-1)).to.deep.equal(["h"]);
    await g.release();
    expect(await again).to.equal("H");
  });

  it("lets other keys run alongside", async () => {
    const g = gated();
    const queue = new Batches(g.run, 10);
    const replies = [queue.submit("x", "a"), queue.submit("y", "b"), queue.submit("x", "c")];
    await g.tick();
    expect(g.batches).to.deep.equal([["a"], ["b"]]);
    await g.release();
    await g.release();
    await g.release();
    expect(g.batches).to.deep.equal([["a"], ["b"], ["c"]]);
    expect(await Promise.all(replies)).to.deep.equal(["A", "B", "C"]);
  });

  it("fails a job alone when its outcome is an error, and every job of a batch that fails", async () => {
    const g = gated();
    const queue = new Batches(g.run, 10);
    const settled = (p: Promise<string>) => p.then((v) => v, (e: Error) => `error: ${e.message}`);
    const first = settled(queue.submit("k", "a"));
    const second = ["b", "bad-c", "d"].map((j) => settled(queue.submit("k", j)));
    await g.tick();
    await g.release();
    const third = ["e", "crash"].map((j) => settled(queue.submit("k", j)));
    await g.release();
    expect(g.batches).to.deep.equal([["a"], ["b", "bad-c", "d"], ["e", "crash"]]);
    await g.release();
    expect(await first).to.equal("A");
    expect(await Promise.all(second)).to.deep.equal(["B", "error: bad-c", "D"]);
    expect(await Promise.all(third)).to.deep.equal(["error: batch failed", "error: batch failed"]);
    // A failed batch leaves the key free for the next.
    const after = settled(queue.submit("k", "f"));
    await g.tick();
    await g.release();
    expect(await after).to.equal("F");
  });
});
