// What JSON.parse and JSON.stringify are given while some work runs: the tests holding a read
// to passing PostgreSQL's text through look for the answer among those texts.

/** Runs `work` with JSON.parse and JSON.stringify recording the texts they read and write. */
export async function jsonCalls<T>(work: () => Promise<T>): Promise<{ result: T; seen: string[] }> {
  const seen: string[] = [];
  const { parse, stringify } = JSON;
  JSON.parse = (text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    seen.push(`parse ${text}`);
    return parse(text, reviver);
  };
  JSON.stringify = ((value: unknown, ...rest: [never, never]) => {
    const out = stringify(value, ...rest);
    seen.push(`stringify ${out}`);
    return out;
  }) as typeof JSON.stringify;
  try {
    return { result: await work(), seen };
  } finally {
    Object.assign(JSON, { parse, stringify });
  }
}
