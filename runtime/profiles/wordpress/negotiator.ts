// Which form of an answer the client asked for. Only the API's document has two: JSON, or
// Swagger UI for a browser (an Accept whose first choice is text/html).
import type { Request } from "express";
import { parseAccept } from "../../http/request.js";

export interface WpNegotiator {
  wantsHtml(req: Request): boolean;
}

export const acceptNegotiator: WpNegotiator = {
  wantsHtml: (req) => parseAccept(req.get("accept"))[0]?.type === "text/html",
};
