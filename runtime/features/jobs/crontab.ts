// Crontab schedules as Nautobot 1.5.24 reads them: five fields split on single spaces, each
// parsed as Celery's crontab_parser parses it (`*`, lists, ranges that may wrap, steps, and
// month or weekday names, in any field), with Celery's refusals worded as Python words them,
// since the API quotes them. Celery fires at a minute when every field matches, the day of
// the month AND the day of the week (not cron's OR); times are UTC, Nautobot's default zone.
// No npm cron library reads crontabs this way, nor words its refusals so.

/** A crontab that Nautobot refuses, with the text its API answers. */
export class CrontabError extends Error {}

export interface Crontab {
  minute: Set<number>;
  hour: Set<number>;
  dayOfWeek: Set<number>;
  dayOfMonth: Set<number>;
  monthOfYear: Set<number>;
}

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Python's repr of a string: single quotes unless it holds one and no double quote. */
function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  return `${quote}${s.replace(/\\/g, "\\\\").replace(new RegExp(quote, "g"), `\\${quote}`)}${quote}`;
}

/** Python's int() of a string, or null where it raises. */
function pyInt(s: string): number | null {
  const t = s.trim();
  return /^[+-]?\d+(_\d+)*$/.test(t) ? Number(t.replace(/_/g, "")) : null;
}

const intOrRaise = (s: string): number => {
  const n = pyInt(s);
  if (n === null) throw new CrontabError(`invalid literal for int() with base 10: ${pyRepr(s)}`);
  return n;
};

/** Python's `list[::step]`. */
function everyNth(values: number[], step: number): number[] {
  if (step === 0) throw new CrontabError("slice step cannot be zero");
  if (step < 0) return values.slice().reverse().filter((_, i) => i % -step === 0);
  return values.filter((_, i) => i % step === 0);
}

/** Celery's crontab_parser over values `min` to `min + max - 1`. */
class FieldParser {
  constructor(private readonly max: number, private readonly min: number) {}

  parse(spec: string): Set<number> {
    const acc = new Set<number>();
    for (const part of spec.split(",")) {
      if (!part) throw new CrontabError("empty part");
      for (const v of this.part(part)) acc.add(v);
    }
    return acc;
  }

  // Each pattern matches at the start of the part only, as Python's re.match.
  private part(part: string): number[] {
    let m = /^(\w+?)-(\w+)\/(\w+)?/.exec(part);
    if (m) {
      if (!m[3]) throw new CrontabError("empty filter");
      return everyNth(this.range(m[1], m[2]), intOrRaise(m[3]));
    }
    m = /^(\w+?)-(\w+)/.exec(part);
    if (m) return this.range(m[1], m[2]);
    m = /^\*\/(\w+)?/.exec(part);
    if (m) {
      if (!m[1]) throw new CrontabError("empty filter");
      return everyNth(this.star(), intOrRaise(m[1]));
    }
    if (part === "*") return this.star();
    return this.range(part);
  }

  private star(): number[] {
    return Array.from({ length: this.max }, (_, i) => this.min + i);
  }

  private range(from: string, to?: string): number[] {
    const fr = this.number(from);
    if (to === undefined) return [fr];
    const t = this.number(to);
    const span = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
    return t < fr ? [...span(fr, this.min + this.max), ...span(this.min, t + 1)] : span(fr, t + 1);
  }

  private number(s: string): number {
    if (s.startsWith("-")) throw new CrontabError("negative numbers not supported");
    let i = pyInt(s);
    if (i === null) {
      const abbr = s.slice(0, 3).toLowerCase();
      if (MONTHS.includes(abbr)) i = MONTHS.indexOf(abbr) + 1;
      else if (WEEKDAYS.includes(abbr)) i = WEEKDAYS.indexOf(abbr);
      else throw new CrontabError(`Invalid weekday literal ${pyRepr(s)}.`);
    }
    const top = this.min + this.max - 1;
    if (i > top) throw new CrontabError(`Invalid end range: ${i} must be ${top} or smaller.`);
    if (i < this.min) throw new CrontabError(`Invalid beginning range: ${i} must be ${this.min} or greater.`);
    return i;
  }
}

/** Reads a crontab as Nautobot's ScheduledJob.get_crontab does, or throws its refusal. */
export function parseCrontab(text: string): Crontab {
  const parts = text.split(" ");
  if (parts.length < 5) throw new CrontabError(`not enough values to unpack (expected 5, got ${parts.length})`);
  if (parts.length > 5) throw new CrontabError("too many values to unpack (expected 5)");
  const [minute, hour, dayOfWeek, dayOfMonth, monthOfYear] = [parts[0], parts[1], parts[4], parts[2], parts[3]];
  // Celery expands the hour before the minute: a crontab wrong in both is refused for its hour.
  const h = new FieldParser(24, 0).parse(hour);
  return {
    hour: h,
    minute: new FieldParser(60, 0).parse(minute),
    dayOfWeek: new FieldParser(7, 0).parse(dayOfWeek),
    dayOfMonth: new FieldParser(31, 1).parse(dayOfMonth),
    monthOfYear: new FieldParser(12, 1).parse(monthOfYear),
  };
}

const MINUTE = 60_000;

/**
 * The first minute at or after `from` (UTC) that the crontab fires at, searching day by day
 * and then within the day, for at most eight years (a crontab such as `0 0 31 2 *` never fires:
 * null).
 */
export function nextFiring(c: Crontab, from: Date): Date | null {
  const start = new Date(Math.ceil(from.getTime() / MINUTE) * MINUTE);
  const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  const hours = [...c.hour].sort((a, b) => a - b);
  const minutes = [...c.minute].sort((a, b) => a - b);
  for (let d = 0; d < 366 * 8; d++) {
    const date = new Date(day.getTime() + d * 86_400_000);
    if (!c.monthOfYear.has(date.getUTCMonth() + 1) || !c.dayOfMonth.has(date.getUTCDate()) || !c.dayOfWeek.has(date.getUTCDay())) continue;
    for (const h of hours) {
      for (const m of minutes) {
        const at = new Date(date.getTime() + (h * 60 + m) * MINUTE);
        if (at >= start) return at;
      }
    }
  }
  return null;
}
