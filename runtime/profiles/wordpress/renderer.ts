// How an answer is written: JSON, or with `_envelope` (WordPress's envelope for clients that
// cannot read statuses or headers) a 200 whose body carries the status, headers and body; and
// the HTML page the document view gives a browser. A body that is JSON text already (records
// PostgreSQL wrote) is sent as it is.
import type { Response } from "express";
import { JsonText } from "../../query/json-text.js";
import { sendJsonText } from "../../http/json-text.js";
import type { Params } from "./params.js";

export interface WpRenderer {
  json(res: Response, params: Params, status: number, body: unknown, headers?: Record<string, string>): void;
  html(res: Response, page: string): void;
}

export const jsonRenderer: WpRenderer = {
  json(res, params, status, body, headers = {}) {
    if (params._envelope !== undefined) {
      if (body instanceof JsonText) sendJsonText(res, 200, new JsonText('{"body":', body, `,"status":${status},"headers":${JSON.stringify(headers)}}`));
      else res.status(200).json({ body, status, headers });
      return;
    }
    res.status(status).set(headers);
    if (body instanceof JsonText) sendJsonText(res, status, body);
    else res.json(body);
  },

  html(res, page) {
    res.status(200).type("html").send(page);
  },
};
