// `armature shell`, as Nautobot's nbshell: a Node REPL (node:repl, top-level await) with the
// engine loaded. Its context: `apis` (the descriptors), `engines` (one per API, by name: index,
// store, operations), `db` (Knex), and `run(api, work)`, which runs `work(op)` as a system
// operation of the shell's, so what it writes goes through the write pipeline (change records,
// webhooks, checks) like any other write. Reads stdin, so input can be piped in.
import { once } from "node:events";
import type { ApiDescriptor } from "../descriptor.js";
import type { Database } from "../db/connect.js";
import { Engine } from "../engine.js";
import { Operations, type WriteOperation } from "../operations/index.js";

export async function shell(db: Database, apis: ApiDescriptor[]): Promise<void> {
  const engines = Object.fromEntries(apis.map((a) => [a.name, new Engine(a, db.knex)]));
  const run = <T>(api: string, work: (op: WriteOperation) => Promise<T>): Promise<T> => {
    const engine = engines[api];
    if (!engine) throw new Error(`no API "${api}"; the APIs are ${Object.keys(engines).join(", ")}`);
    return engine.operations.run(Operations.system("shell"), work);
  };
  const interactive = process.stdin.isTTY === true;
  if (interactive) {
    console.log(`Armature shell. In scope: apis, engines (${Object.keys(engines).join(", ")}), db, run(api, async (op) => …).`);
    console.log(`Example: await run("${apis[0].name}", (op) => engines.${apis[0].name}.store.create(op, engines.${apis[0].name}.index.model("<app>.<model>"), {…}, { version: "${apis[0].versions.supported.at(-1)}", partial: false }))`);
  }
  // Imported here, not with the command line: node:repl loads node:domain, which wraps every
  // EventEmitter made from then on (each request's, each query's) in a serving process.
  const repl = await import("node:repl");
  // The process's own realm: objects typed at the prompt are then plain objects to the engine's checks.
  const server = repl.start({ prompt: interactive ? "armature> " : "", useGlobal: true, terminal: interactive, ignoreUndefined: true });
  Object.assign(server.context, { apis, engines, db: db.knex, run });
  await once(server, "exit");
  await db.close();
}
