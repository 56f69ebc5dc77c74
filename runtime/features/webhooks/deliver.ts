// The queue handler that sends a rendered webhook delivery (./render.ts): its method, headers
// and body to its URL, checking the server's certificate unless the webhook turned that off,
// against its own CA file when it names one; within a deadline. A 2xx answer is success; any
// other status (redirects are not followed), a network error or the deadline is a failure the
// queue retries; a delivery that cannot be made at all (a template that failed, a URL that is
// not http or https) fails at once, without retries.
import http from "node:http";
import https from "node:https";
import { readFile } from "node:fs/promises";
import { TaskFailure, type TaskHandler } from "../../queue/worker.js";
import { publish, type Events } from "../../telemetry.js";
import type { Delivery } from "./render.js";

/** How much of an answer's body is kept with the attempt. */
const MAX_ANSWER = 500;

interface Answer { status: number; text: string }

function send(url: URL, d: Delivery, body: Buffer, ca: Buffer | undefined, signal: AbortSignal): Promise<Answer> {
  const headers: Record<string, string | number> = {};
  // The length is the body's, whatever the headers say (as requests sets it).
  for (const [name, value] of d.headers) if (name.toLowerCase() !== "content-length") headers[name] = value;
  headers["Content-Length"] = body.length;
  const options: https.RequestOptions = { method: d.method, headers, signal };
  // As Nautobot's `session.verify`: a CA file means verifying against it.
  if (url.protocol === "https:") Object.assign(options, { rejectUnauthorized: d.sslVerification || Boolean(ca) }, ca ? { ca } : {});
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(url, options, async (res) => {
      try {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res as AsyncIterable<Buffer>) {
          if (size < MAX_ANSWER) chunks.push(chunk);
          size += chunk.length;
        }
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8").slice(0, MAX_ANSWER) });
      } catch (err) {
        reject(err);
      }
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The handler of WEBHOOK_TASK deliveries, each attempt's result told (runtime/telemetry.ts) unless the worker cut it short. */
export function webhookHandler(opts: { timeoutMs: number }): TaskHandler {
  const deliver = delivery(opts);
  return async (payload, task) => {
    try {
      const report = await deliver(payload, task);
      publish("webhooks.delivery", { result: "delivered" });
      return report;
    } catch (err) {
      if (!task.signal.aborted) publish("webhooks.delivery", { result: resultOf(err) });
      throw err;
    }
  };
}

/** A failed attempt: answered otherwise than 2xx, impossible to make, or unanswered. */
function resultOf(err: unknown): Events["webhooks.delivery"]["result"] {
  if (err instanceof TaskFailure && err.statusCode !== null) return "refused";
  return err instanceof TaskFailure && !err.retry ? "invalid" : "unreachable";
}

/** One delivery attempt; `timeoutMs` bounds it, connection and answer together. */
function delivery(opts: { timeoutMs: number }): TaskHandler {
  return async (payload, { signal }) => {
    const d = payload as Delivery;
    if (d.error) throw new TaskFailure(d.error, { retry: false });
    let url: URL;
    try {
      url = new URL(d.url);
    } catch {
      throw new TaskFailure(`The payload URL "${d.url}" is not a URL.`, { retry: false });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TaskFailure(`The payload URL "${d.url}" is not http or https.`, { retry: false });
    const ca = url.protocol === "https:" && d.caFilePath ? await readFile(d.caFilePath) : undefined;
    const deadline = AbortSignal.timeout(opts.timeoutMs);
    let answer: Answer;
    try {
      answer = await send(url, d, Buffer.from(d.body, "utf8"), ca, AbortSignal.any([signal, deadline]));
    } catch (err) {
      if (deadline.aborted && !signal.aborted) throw new TaskFailure(`No answer within ${opts.timeoutMs / 1000} s.`);
      throw err;
    }
    if (answer.status >= 200 && answer.status < 300) return { statusCode: answer.status, detail: `Status ${answer.status} returned, webhook successfully processed.` };
    throw new TaskFailure(`Status ${answer.status} returned with content '${answer.text}', webhook FAILED to process.`, { statusCode: answer.status });
  };
}
