// The HTTP server's life as an operator sees it: it listens or says clearly why it cannot,
// and on SIGTERM or SIGINT it stops taking connections, lets the requests in flight finish
// (a client whose write committed gets its answer), closes keep-alive connections, releases
// the database and exits. A second signal, or the shutdown timeout, cuts the wait short.
import http, { type RequestListener, type Server, type ServerOptions, type ServerResponse } from "node:http";
import { constants } from "node:os";

interface Traffic {
  /** Responses not yet sent in full (or abandoned by their client). */
  inFlight: Set<ServerResponse>;
  draining: boolean;
}

const traffic = new WeakMap<Server, Traffic>();

/**
 * An HTTP server for `handler` whose requests in flight `drain` can wait for; `classes` are the
 * request and response classes it makes (the site's: runtime/http/fast-path.ts).
 */
export function createServer(handler: RequestListener, classes: Pick<ServerOptions, "IncomingMessage" | "ServerResponse"> = {}): Server {
  const t: Traffic = { inFlight: new Set(), draining: false };
  // Connections are checked against the headers and request timeouts every second, not every
  // 30 s (Node's default): a slow client is cut off near the bound it is given.
  const server = http.createServer({ ...classes, connectionsCheckingInterval: 1000 }, (req, res) => {
    t.inFlight.add(res);
    res.on("close", () => {
      t.inFlight.delete(res);
      // A keep-alive connection whose reply was already under way when draining began
      // becomes idle only now; Node would otherwise hold it open for keepAliveTimeout.
      if (t.draining) setImmediate(() => server.closeIdleConnections());
    });
    if (t.draining) res.setHeader("Connection", "close");
    handler(req, res);
  });
  traffic.set(server, t);
  return server;
}

const REASONS: Record<string, string> = {
  EADDRINUSE: "the address is already in use (another process listens there)",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "the host is not an address of this machine",
};

/** Binds `server` to host:port; a failure rejects with a message that names both. */
export function listenOn(server: Server, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) => {
      server.off("listening", ok);
      const reason = REASONS[err.code ?? ""] ?? err.message;
      reject(new Error(`cannot listen on ${host}:${port}: ${reason}${err.code ? ` (${err.code})` : ""}`, { cause: err }));
    };
    const ok = () => {
      server.off("error", fail);
      resolve(server);
    };
    server.once("error", fail);
    server.once("listening", ok);
    try {
      server.listen(port, host);
    } catch (err) {
      fail(err as NodeJS.ErrnoException);
    }
  });
}

/**
 * Stops accepting connections and waits for the requests in flight: replies still to be
 * sent carry `Connection: close`, idle keep-alive connections are closed. Gives how many
 * requests were cut off because they outlasted `timeoutMs` (0 when all finished).
 */
export function drain(server: Server, timeoutMs: number): Promise<number> {
  const t = traffic.get(server);
  if (!t) throw new Error("drain: the server was not made by createServer");
  t.draining = true;
  for (const res of t.inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      const cut = t.inFlight.size;
      server.closeAllConnections();
      resolve(cut);
    }, timeoutMs);
    // Also closes the idle keep-alive connections (Node 19 and later).
    server.close(() => {
      clearTimeout(timer);
      resolve(0);
    });
  });
}

export interface ShutdownOptions {
  /** Longest wait for requests in flight, in seconds. */
  timeoutSeconds: number;
  /** Frees what the requests used (the database), once they are done. */
  release(): Promise<void>;
}

/**
 * A signal this soon after the first is the same Ctrl-C twice: the terminal sends it to the
 * whole process group and wrappers (npm, tsx) pass it on as well.
 */
const ECHO_MS = 1000;

/** How long releasing may take after the requests are done (a database that stopped answering). */
export const RELEASE_MS = 5000;

/**
 * On the first SIGTERM or SIGINT drains `server`, releases, and exits 0, or 1 when requests
 * had to be cut off or releasing failed or hung; a second signal, a second or more later,
 * exits at once.
 */
export function shutDownOnSignals(server: Server, opts: ShutdownOptions): void {
  let firstAt: number | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (firstAt !== undefined) {
      if (Date.now() - firstAt < ECHO_MS) return;
      console.error(`${signal} again: exiting without waiting for requests in flight`);
      process.exit(128 + constants.signals[signal]);
    }
    const started = (firstAt = Date.now());
    const inFlight = traffic.get(server)?.inFlight.size ?? 0;
    setTimeout(() => {
      console.error("shutdown did not finish: exiting without releasing the database");
      process.exit(1);
    }, opts.timeoutSeconds * 1000 + RELEASE_MS).unref();
    const drained = drain(server, opts.timeoutSeconds * 1000);
    // Only now, with the listening socket closed: whoever reads this may rely on it.
    console.log(`${signal}: shutting down; no new connections, waiting up to ${opts.timeoutSeconds} s for ${inFlight} request(s) in flight`);
    drained
      .then(async (cut) => {
        await opts.release();
        const took = ((Date.now() - started) / 1000).toFixed(1);
        if (cut) {
          console.error(`shut down after ${took} s; ${cut} request(s) outlasted SHUTDOWN_TIMEOUT and were cut off`);
          process.exit(1);
        }
        console.log(`shut down cleanly in ${took} s`);
        process.exit(0);
      })
      .catch((err: unknown) => {
        console.error(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      });
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // A cluster primary asks its workers to stop by message (runtime/http/cluster.ts): the same
  // request as the signal the process group may have brought, however late it arrives.
  process.on("message", (message: unknown) => {
    if (message === STOP_MESSAGE && firstAt === undefined) stop("SIGTERM");
  });
}

/** What a cluster primary sends a worker it asks to stop. */
export const STOP_MESSAGE = "armature:stop";
