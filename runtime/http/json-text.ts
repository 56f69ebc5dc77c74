// Sends an answer that is JSON text already (runtime/query/json-text.ts) with the status and
// headers Express's `send` gives a string, its pieces written one after another: never joined
// into one string, nor copied into one buffer. Does not negotiate or render anything.
import type { Response } from "express";
import { JsonText, type ArrivingJsonText } from "../query/json-text.js";
import { reportFailure } from "./failures.js";

export function sendJsonText(res: Response, statusCode: number, body: JsonText): void {
  res.status(statusCode);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", String(body.byteLength));
  // A HEAD answer's body is dropped by node:http, as Express's `send` drops it.
  for (const part of body.parts) res.write(part);
  res.end();
}

/**
 * Characters of an arriving answer held before it is sent as it comes: an answer shorter than
 * this is sent whole, with its length, as `sendJsonText` sends one; a longer one goes out in
 * chunks (HTTP/1.1's chunked transfer coding) as PostgreSQL's rows arrive.
 */
const HELD_BEFORE_CHUNKS = 262144;

/**
 * Characters of pieces written to the socket together once the answer has started. Rows come
 * as PostgreSQL sends them, 8 KB at a time, as fast as it makes them: a piece written as soon
 * as it was made found the socket idle and took a system call of its own, and on loopback the
 * receiving side's work with it: a list of 1,000 devices spent 2.2 ms a request in writev so,
 * 1.6 ms in batches of this size.
 */
const WRITTEN_TOGETHER = 65536;

/**
 * Sends `body`, whose middle is still arriving (runtime/query/json-text.ts ArrivingJsonText).
 * Fails, with nothing sent, where the rows stop before the answer was started; where they stop
 * after, the failure is logged and the connection cut, so that the client cannot take the part
 * it has for the whole.
 */
export async function sendArrivingJson(res: Response, statusCode: number, body: ArrivingJsonText): Promise<void> {
  const held: string[] = [body.before];
  let length = body.before.length;
  let started = false;
  const start = () => {
    res.status(statusCode);
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.cork();
    for (const piece of held) res.write(piece);
    res.uncork();
    held.length = 0;
    started = true;
  };
  let batch: string[] = [];
  let batched = 0;
  const flush = () => {
    res.cork();
    for (const piece of batch) res.write(piece);
    res.uncork();
    batch = [];
    batched = 0;
  };
  try {
    await body.middle.pipe((piece) => {
      if (started) {
        batch.push(piece);
        batched += piece.length;
        if (batched >= WRITTEN_TOGETHER) flush();
        return;
      }
      held.push(piece);
      length += piece.length;
      if (length >= HELD_BEFORE_CHUNKS) start();
    });
  } catch (err) {
    if (!started) throw err;
    // Past the status line there is no error answer to give: logged as any failure is, under the request's id.
    reportFailure(res.req, res, err);
    res.destroy(err instanceof Error ? err : new Error(String(err)));
    return;
  }
  if (started) {
    flush();
    res.end(body.after);
  }
  else sendJsonText(res, statusCode, new JsonText(...held, body.after));
}
