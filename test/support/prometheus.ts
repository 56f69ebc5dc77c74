// A strict reader of Prometheus' text exposition format (0.0.4), for tests of `/metrics`:
// prom-client writes the format but reads none. Every line must be a HELP, a TYPE, a comment,
// blank, or a sample of the family last typed; names, label names, escapes and values are
// checked; a series may appear once; a histogram's buckets must carry `le`, rise with it, and
// end at +Inf equal to its _count. Anything else throws, naming the line.

export type MetricType = "counter" | "gauge" | "histogram" | "summary" | "untyped";

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: MetricType;
  help?: string;
  samples: Sample[];
}

const METRIC = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<MetricType>(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES: Record<MetricType, string[]> = {
  counter: [""], gauge: [""], untyped: [""], histogram: ["_bucket", "_sum", "_count"], summary: ["", "_sum", "_count"],
};

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  const seen = new Set<string>();
  let current: Family | undefined;
  const lines = text.split("\n");
  if (lines.at(-1) !== "") throw new Error("the exposition does not end with a newline");
  lines.pop();
  lines.forEach((line, i) => {
    const fail = (why: string): never => {
      throw new Error(`line ${i + 1} (${JSON.stringify(line)}): ${why}`);
    };
    if (line === "") return;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ""] = meta;
      if (!METRIC.test(name)) fail("bad metric name");
      if (current && current.name !== name) closed.add(current.name);
      if (closed.has(name)) fail("a family's lines must be together");
      const family = families.get(name) ?? { name, type: "untyped" as MetricType, samples: [] };
      if (kind === "TYPE") {
        if (!TYPES.has(rest as MetricType)) fail(`unknown type ${rest}`);
        if (family.samples.length || (families.has(name) && family.type !== "untyped")) fail("TYPE after samples or twice");
        family.type = rest as MetricType;
      } else {
        if (family.help !== undefined) fail("HELP twice");
        family.help = unescape(rest, false, fail);
      }
      families.set(name, family);
      current = family;
      return;
    }
    if (line.startsWith("#")) return;
    const sample = parseSample(line, fail);
    const family = current && SUFFIXES[current.type].some((s) => sample.name === current!.name + s) ? current : undefined;
    if (!family) fail(`sample of no family typed just before (${current?.name ?? "none"})`);
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(key)) fail("the same series twice");
    seen.add(key);
    family!.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line) ?? fail("no metric name");
  const name = head[1];
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === "{") {
    at++;
    while (line[at] !== "}") {
      const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(at)) ?? fail(`bad label at column ${at + 1}`);
      at += label[0].length;
      let raw = "";
      while (line[at] !== '"') {
        if (at >= line.length) fail("unterminated label value");
        if (line[at] === "\\") raw += line[at++];
        raw += line[at++];
      }
      at++;
      if (!LABEL.test(label[1]) || label[1] in labels) fail(`label ${label[1]} repeated or invalid`);
      labels[label[1]] = unescape(raw, true, fail);
      if (line[at] === ",") at++;
      else if (line[at] !== "}") fail(`expected , or } at column ${at + 1}`);
    }
    at++;
  }
  const rest = line.slice(at);
  const parts = /^ (\S+)(?: (-?\d+))?$/.exec(rest) ?? fail("expected one space, a value and perhaps a timestamp");
  return { name, labels, value: number(parts[1], fail) };
}

/**
 * A value as the format defines it, by Go's ParseFloat, which Prometheus reads it with: the
 * special values in any case. prom-client writes NaN as `Nan` (a histogram's mean over no
 * samples, such as `nodejs_eventloop_lag_mean_seconds` between two close scrapes).
 */
function number(text: string, fail: (why: string) => never): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) fail(`bad value ${text}`);
  return Number(text);
}

function unescape(text: string, quoted: boolean, fail: (why: string) => never): string {
  return text.replace(/\\(.)?/g, (_, c: string | undefined) => {
    if (c === "\\") return "\\";
    if (c === "n") return "\n";
    if (c === '"' && quoted) return '"';
    return fail(`bad escape \\${c ?? ""}`);
  });
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name.endsWith("_bucket")) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([number(le, (why) => { throw new Error(`${family.name}: le ${why}`); }), s.value]);
    } else if (s.name.endsWith("_count")) entry.count = s.value;
  }
  for (const [key, { buckets, count }] of series) {
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    if (sorted.at(-1)?.[0] !== Infinity) throw new Error(`${family.name} ${key}: no +Inf bucket`);
    sorted.forEach(([, v], n) => {
      if (n > 0 && v < sorted[n - 1][1]) throw new Error(`${family.name} ${key}: buckets fall`);
    });
    if (sorted.at(-1)![1] !== count) throw new Error(`${family.name} ${key}: +Inf bucket ${sorted.at(-1)![1]} is not _count ${count}`);
  }
}

/** The sum of the samples named `name` whose labels include `labels` (0 when none). */
export function total(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = [...families.values()].find((f) => f.samples.some((s) => s.name === name));
  return (family?.samples ?? [])
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
