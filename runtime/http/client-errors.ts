// Requests Node's HTTP parser refuses before any route sees them (a request line with raw
// control bytes, headers or a URL beyond the header size limit, a malformed header) are still
// answered in the error format of the API they were addressed to, with the headers every reply
// carries, whenever the socket can still take a reply.
import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Config } from "../config.js";

const MESSAGES: Record<number, string> = {
  400: "The request could not be parsed.",
  408: "The request took too long to arrive.",
  413: "The request is too large.",
  431: "The request's headers or URL are too large.",
};

function statusFor(code: string | undefined): number {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  if (code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return 413;
  return 400;
}

/** The body for `status`, shaped as the API under the request's path words its errors. */
export function clientErrorBody(status: number, path: string, config: Config): Record<string, unknown> {
  const message = MESSAGES[status] ?? STATUS_CODES[status] ?? "Bad request.";
  const wp = config.wpApiRoot;
  if (path === wp || path.startsWith(`${wp}/`) || path.startsWith(`${wp}?`)) {
    return { code: status === 431 ? "rest_request_too_large" : "rest_invalid_request", message, data: { status } };
  }
  return { detail: message };
}

export function answerClientErrors(server: Server, config: Config): void {
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusFor(err.code);
    const requestLine = err.rawPacket?.toString("latin1").split("\r\n", 1)[0] ?? "";
    const path = requestLine.split(" ")[1] ?? "";
    const body = JSON.stringify(clientErrorBody(status, path, config));
    socket.end([
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      "Content-Type: application/json; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "X-Content-Type-Options: nosniff",
      "Connection: close",
      "",
      body,
    ].join("\r\n"));
  });
}
