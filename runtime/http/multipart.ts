// multipart/form-data (RFC 7578) from a body already read whole (the profiles read bodies
// within their size limit): each part's field name, its file name when it is a file, and its
// content. Fields are text (UTF-8); a field sent twice keeps its last value, as Django's
// QueryDict.dict() gives it. A body that is not well formed is a BodyProblem.
import { BodyProblem } from "./body.js";

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, { filename: string; content: Buffer }>;
}

/** The `boundary` parameter of a multipart content type, unquoted. */
function boundaryOf(contentType: string): string {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary || boundary.length > 70) throw new BodyProblem("syntax", `Invalid boundary in multipart: ${boundary ?? "None"}`);
  return boundary;
}

/** A header's parameter (`name`, `filename`), quoted or not. */
function param(header: string, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, "i").exec(header);
  return m ? (m[1] ?? m[2]).replace(/\\(.)/g, "$1") : undefined;
}

export function parseMultipart(body: Buffer, contentType: string): MultipartForm {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const form: MultipartForm = { fields: {}, files: {} };
  let at = body.indexOf(delimiter);
  if (at < 0) throw new BodyProblem("syntax", "no part begins with the boundary");
  for (;;) {
    at += delimiter.length;
    // The closing delimiter ends the body; anything after it is an epilogue.
    if (body.subarray(at, at + 2).toString("latin1") === "--") return form;
    if (body.subarray(at, at + 2).toString("latin1") !== "\r\n") throw new BodyProblem("syntax", "a boundary is not followed by a line break");
    const headersEnd = body.indexOf("\r\n\r\n", at + 2);
    if (headersEnd < 0) throw new BodyProblem("syntax", "a part's headers do not end");
    const next = body.indexOf(Buffer.concat([Buffer.from("\r\n"), delimiter]), headersEnd + 4);
    if (next < 0) throw new BodyProblem("syntax", "the body ends within a part");
    const headers = body.subarray(at + 2, headersEnd).toString("utf8").split("\r\n");
    const disposition = headers.find((h) => /^content-disposition:/i.test(h));
    const name = disposition && /^content-disposition:\s*form-data/i.test(disposition) ? param(disposition, "name") : undefined;
    if (name === undefined) throw new BodyProblem("syntax", "a part has no form-data name");
    const content = body.subarray(headersEnd + 4, next);
    const filename = param(disposition!, "filename");
    if (filename !== undefined) form.files[name] = { filename, content: Buffer.from(content) };
    else form.fields[name] = content.toString("utf8");
    at = next + 2;
  }
}
