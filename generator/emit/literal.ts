// A writer helper for ts-morph: prints a JSON-like value as a TypeScript object literal,
// with unquoted keys where TypeScript allows them. Takes plain data; gives code text.
import type { CodeBlockWriter } from "ts-morph";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An expression printed as is (an imported name), where the rest of the value is data. */
export class Code {
  constructor(readonly text: string) {}
}

export function writeLiteral(writer: CodeBlockWriter, value: unknown): void {
  if (value instanceof Code) {
    writer.write(value.text);
    return;
  }
  if (value === null || typeof value !== "object") {
    writer.write(value === undefined ? "undefined" : JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    const flat = value.every((v) => v === null || typeof v !== "object");
    if (flat) {
      writer.write(`[${value.map((v) => JSON.stringify(v)).join(", ")}]`);
      return;
    }
    writer.write("[").newLine().indent(() => {
      for (const item of value) {
        writeLiteral(writer, item);
        writer.write(",").newLine();
      }
    }).write("]");
    return;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) {
    writer.write("{}");
    return;
  }
  const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k));
  // Spacing is added between printed values, never inside them: a string may hold commas.
  const flat = (v: unknown) => (Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(", ")}]` : JSON.stringify(v));
  const inline = `{ ${entries.map(([k, v]) => `${key(k)}: ${flat(v)}`).join(", ")} }`;
  const plain = (v: unknown) => v === null || typeof v !== "object";
  if (inline.length <= 100 && entries.every(([, v]) => plain(v) || (Array.isArray(v) && v.every(plain)))) {
    writer.write(inline);
    return;
  }
  writer.write("{").newLine().indent(() => {
    for (const [k, v] of entries) {
      writer.write(`${key(k)}: `);
      writeLiteral(writer, v);
      writer.write(",").newLine();
    }
  }).write("}");
}
