// multipart/form-data request bodies (uploads), parsed by busboy from the body already read:
// text parts become strings (a repeated name keeps its last value, as Django's QueryDict
// gives one), file parts `Upload`s. Part names that would reach a prototype are refused, as
// the JSON policy refuses them (http/body.ts); failures are `BodyProblem`s the profile words.
import busboy from "busboy";
import { BodyProblem, isPrototypeKey } from "./body.js";

/** A file part of a multipart body. */
export class Upload {
  constructor(readonly filename: string, readonly type: string, readonly data: Buffer) {}
}

/** Most parts one body may have. */
const MAX_PARTS = 1000;

/** The parts of a multipart body whose Content-Type header is `contentType`, by name. */
export function parseMultipart(body: Buffer, contentType: string): Promise<Record<string, string | Upload>> {
  // Checked before busboy, in Django's words, as Nautobot's MultiPartParser refuses it.
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const given = boundary?.[1] ?? boundary?.[2];
  if (!given || given.length > 70) return Promise.reject(new BodyProblem("syntax", `Invalid boundary in multipart: ${given ?? "None"}`));
  return new Promise((resolvePromise, reject) => {
    const out: Record<string, string | Upload> = Object.create(null);
    const fail = (message: string) => reject(new BodyProblem("syntax", message));
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, limits: { parts: MAX_PARTS }, defParamCharset: "utf8" });
    } catch (e) {
      fail((e as Error).message);
      return;
    }
    const named = (name: string): boolean => {
      if (!isPrototypeKey(name)) return true;
      reject(new BodyProblem("key", `The key "${name}" is not accepted.`, name));
      return false;
    };
    parser.on("field", (name, value) => { if (named(name)) out[name] = value; });
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => { if (named(name)) out[name] = new Upload(info.filename ?? "", info.mimeType, Buffer.concat(chunks)); });
    });
    parser.on("partsLimit", () => fail(`More than ${MAX_PARTS} parts are not accepted.`));
    parser.on("error", (e: Error) => fail(e.message));
    parser.on("close", () => resolvePromise(out));
    parser.end(body);
  });
}
