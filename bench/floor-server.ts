// The floor (bench/floor.ts) as a process of its own, for `BENCH_PROCESSES=1`: opens the
// database the environment names (DATABASE_URL, else the PGlite directory DATA_DIR), serves on
// 127.0.0.1:PORT (idle connections kept KEEP_ALIVE_TIMEOUT seconds), says so on stdout, and on
// SIGTERM closes the server and the database.
import "./statements.js";
import { configFromEnv } from "../runtime/config.js";
import { openDatabase } from "../runtime/db/connect.js";
import { floor } from "./floor.js";

const config = configFromEnv();
const db = await openDatabase(config);
const server = floor(db.knex);
server.keepAliveTimeout = config.keepAliveTimeout * 1000;
server.listen(config.port, "127.0.0.1", () => console.log(`floor is serving on port ${config.port}`));
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  db.close().then(() => process.exit(0), (err) => {
    console.error(err);
    process.exit(1);
  });
});
