// The text of an emitted OpenAPI document: indented down to its operations and components,
// each of those on one line. A change shows in a diff as the operations and components it
// touches, and the documents keep under half the size full indentation gives them (most of
// whose bytes were the indentation of deeply nested schemas).

/** Levels indented: the document, its sections (`paths`, `components`), then a path or a kind of component. */
const INDENTED = 3;

export function openApiText(document: unknown): string {
  return `${layout(document, 0, "")}\n`;
}

function layout(value: unknown, depth: number, indent: string): string {
  if (depth >= INDENTED || value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  const lines = Array.isArray(value)
    ? value.map((v) => `${inner}${layout(v, depth + 1, inner)}`)
    // Keys without a value are left out, as JSON.stringify leaves them out.
    : Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${layout(v, depth + 1, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return lines.length ? `${open}\n${lines.join(",\n")}\n${indent}${close}` : `${open}${close}`;
}
