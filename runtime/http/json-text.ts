// Sends an answer that is JSON text already (runtime/query/json-text.ts) with the status and
// headers Express's `send` gives a string, its pieces written one after another: never joined
// into one string, nor copied into one buffer. Does not negotiate or render anything.
import type { Response } from "express";
import type { JsonText } from "../query/json-text.js";

export function sendJsonText(res: Response, statusCode: number, body: JsonText): void {
  res.status(statusCode);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", String(body.byteLength));
  // A HEAD answer's body is dropped by node:http, as Express's `send` drops it.
  for (const part of body.parts) res.write(part);
  res.end();
}
