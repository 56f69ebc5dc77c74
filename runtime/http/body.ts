// The one parser policy for request data, shared by every profile: JSON bodies, query
// strings and form bodies. Nothing it gives can reach an object's prototype: JSON keys that
// name one are refused, bracketed form keys build objects without a prototype, and nesting is
// bounded before any recursive walk of the value (validators, NUL checks) can overflow the
// stack. Failures are `BodyProblem`s, which each profile words in its own error format.

/** Deepest nesting of arrays and objects a request value may have. */
export const MAX_DEPTH = 64;

/** Keys that would reach or replace a prototype if a value were ever merged into an object. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export const isPrototypeKey = (key: string): boolean => PROTOTYPE_KEYS.has(key);

export class BodyProblem extends Error {
  constructor(readonly kind: "syntax" | "depth" | "key", message: string, readonly param?: string) {
    super(message);
  }
}

/**
 * Depth of a parsed JSON value and the first forbidden key in it, found without recursion
 * (the value may be nested deeper than the stack allows).
 */
function inspect(value: unknown): { depth: number; badKey?: string } {
  const stack: Array<[unknown, number]> = [[value, 0]];
  let deepest = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > MAX_DEPTH) return { depth: depth + 1 };
    deepest = Math.max(deepest, depth + 1);
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, depth + 1]);
      continue;
    }
    for (const [k, x] of Object.entries(v)) {
      // JSON.parse keeps `__proto__` as an own key, harmless until something assigns it.
      if (k === "__proto__") return { depth: deepest, badKey: k };
      stack.push([x, depth + 1]);
    }
  }
  return { depth: deepest };
}

/** Where JSON.parse stopped, as Python's json module reports it (DRF's wording). */
function position(text: string, err: Error): string {
  const at = /position (\d+)/.exec(err.message);
  const char = at ? Number(at[1]) : text.length;
  const before = text.slice(0, char);
  const line = before.split("\n").length;
  const column = char - before.lastIndexOf("\n");
  return `line ${line} column ${column} (char ${char})`;
}

/** A JSON request body, checked against the policy. */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = text.trim() === "" || /end of JSON/i.test((err as Error).message) ? "Expecting value" : "Invalid JSON";
    throw new BodyProblem("syntax", `${reason}: ${position(text, err as Error)}`);
  }
  const { depth, badKey } = inspect(value);
  if (depth > MAX_DEPTH) throw new BodyProblem("depth", `Nesting deeper than ${MAX_DEPTH} levels is not accepted.`);
  if (badKey) throw new BodyProblem("key", `The key "${badKey}" is not accepted.`, badKey);
  return value;
}

export type FormValue = string | FormObject | FormValue[];
export interface FormObject { [key: string]: FormValue }

/** A fresh object that has no prototype to reach. */
const bare = (): FormObject => Object.create(null) as FormObject;

/**
 * `a=1&b[]=2&b[]=3&v[name]=x&v[geo][lat]=1` → nested values, PHP-style, as WordPress reads
 * query strings and form bodies. Objects have no prototype; a bracket path naming a
 * prototype key or nested deeper than the limit is refused, naming its top-level parameter.
 */
export function parseBracketed(pairs: Iterable<[string, string]>): FormObject {
  const out = bare();
  for (const [key, value] of pairs) {
    const m = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(key);
    const path = m ? [m[1], ...[...m[2].matchAll(/\[([^\]]*)\]/g)].map((x) => x[1])] : [key];
    if (path.some(isPrototypeKey)) throw new BodyProblem("key", `The key "${path.find(isPrototypeKey)}" is not accepted.`, path[0]);
    if (path.length > MAX_DEPTH) throw new BodyProblem("depth", `Nesting deeper than ${MAX_DEPTH} levels is not accepted.`, path[0]);
    let node: FormObject | FormValue[] = out;
    for (let i = 0; i < path.length; i++) {
      const k = path[i];
      const last = i === path.length - 1;
      const child = (): FormObject | FormValue[] => (path[i + 1] === "" ? [] : bare());
      if (Array.isArray(node)) {
        if (last) { node.push(value); break; }
        const idx = k === "" ? node.length : Number(k);
        // A list only takes small positions: `a[99999999]=x` must not allocate a huge sparse list.
        if (!Number.isSafeInteger(idx) || idx < 0 || idx > node.length) {
          throw new BodyProblem("key", `The list position "${k}" is not accepted.`, path[0]);
        }
        if (typeof node[idx] !== "object") node[idx] = child();
        node = node[idx] as FormObject | FormValue[];
      } else {
        if (last) { node[k] = value; break; }
        if (typeof node[k] !== "object") node[k] = child();
        node = node[k] as FormObject | FormValue[];
      }
    }
  }
  return out;
}
