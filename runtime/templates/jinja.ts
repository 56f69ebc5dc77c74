// Jinja templates (computed fields, secret parameters) rendered by @huggingface/jinja: an
// interpreter with its own value types, so a template reaches only the context's own keys
// (never a JS prototype, constructor or global) and runs no code. What an interpreter cannot
// bound by itself is bounded here: a step budget and a deadline, a cap on `range`, on every
// string a step makes, and on the widths of the filters that repeat text.
import { Environment, Interpreter, parse, tokenize } from "@huggingface/jinja";

/** The most evaluation steps one render may take. */
const MAX_STEPS = 100_000;
/** The longest one render may run, in milliseconds. */
const MAX_MILLIS = 100;
/** The longest string any step may make, and so the longest result. */
export const MAX_OUTPUT = 65_536;

/**
 * How far one render may go: steps, milliseconds, and the longest string. The defaults suit a
 * template of one object; a template over a whole list (an export) is given wider ones.
 */
export interface Bounds { steps: number; millis: number; output: number }
const DEFAULT_BOUNDS: Bounds = { steps: MAX_STEPS, millis: MAX_MILLIS, output: MAX_OUTPUT };
/** The most items `range` gives. */
const MAX_RANGE = 10_000;

export type Rendered = { ok: true; value: string } | { ok: false; error: string };

class Budget extends Error {}

interface Node { type: string; [key: string]: unknown }
interface Value { type: string; value: unknown }

type Scope = InstanceType<typeof Environment>;
interface Evaluator {
  run(program: unknown): Value;
  evaluate(statement: Node | undefined, environment: Scope): Value;
  evaluateBlock(statements: Node[], environment: Scope): Value;
  applyFilter(operand: Value, filter: Node, environment: Scope): Value;
}
// The package's declarations do not resolve under NodeNext, so its interpreter is typed here.
const Base = Interpreter as unknown as new (env: Scope) => Evaluator;

/** Counts steps, watches the clock and the size of what each step made. */
class BoundedInterpreter extends Base {
  private steps = 0;
  private readonly deadline: number;

  constructor(env: Scope, private readonly bounds: Bounds) {
    super(env);
    this.deadline = Date.now() + bounds.millis;
  }

  private step(): void {
    if (++this.steps > this.bounds.steps || ((this.steps & 1023) === 0 && Date.now() > this.deadline)) throw new Budget("The template takes too long to render.");
  }

  /** A loop's iteration runs its body as a block, evaluating nothing when the body is empty, so it counts too. */
  override evaluateBlock(statements: Node[], environment: Scope): Value {
    this.step();
    return super.evaluateBlock(statements, environment);
  }

  override evaluate(statement: Node | undefined, environment: Scope): Value {
    this.step();
    const out = super.evaluate(statement, environment);
    if (typeof out?.value === "string" && out.value.length > this.bounds.output) throw new Budget("The template renders too much text.");
    return out;
  }

  /**
   * Every filter, of an expression or of a `{% filter %}` block, passes here with its operand
   * already a value: those whose output grows with an argument are refused a large one before
   * they run.
   */
  override applyFilter(operand: Value, filter: Node, environment: Scope): Value {
    if (filter.type === "CallExpression") {
      const name = (filter.callee as Node).value;
      if (name === "indent" || name === "tojson" || name === "replace") {
        const args = (filter.args as Node[]).map((a) => this.evaluate(a.type === "KeywordArgumentExpression" ? (a.value as Node) : a, environment).value);
        const grows = name === "replace"
          ? typeof operand.value === "string" && typeof args[1] === "string" && (operand.value.length + 1) * args[1].length > this.bounds.output
          : args.some((a) => typeof a === "number" && a > 64);
        if (grows) throw new Budget("The template renders too much text.");
      }
    }
    return super.applyFilter(operand, filter, environment);
  }
}

/** Python's range, refusing to make more than MAX_RANGE items. */
function range(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0) throw new Error("range() arg 3 must not be zero");
  if (Math.ceil((to - from) / step) > MAX_RANGE) throw new Budget("range() is too long.");
  const out: number[] = [];
  for (let i = from; step > 0 ? i < to : i > to; i += step) out.push(i);
  return out;
}

/** Jinja's constants, in both spellings; nothing else is global. */
const CONSTANTS = { true: true, false: false, none: null, True: true, False: false, None: null };

const parsed = new Map<string, ReturnType<typeof parse>>();

function program(template: string): ReturnType<typeof parse> {
  let p = parsed.get(template);
  if (!p) {
    p = parse(tokenize(template, { lstrip_blocks: false, trim_blocks: false }));
    // Templates are few (definitions), so the cache stays small; a bound keeps it so regardless.
    if (parsed.size > 1000) parsed.clear();
    parsed.set(template, p);
  }
  return p;
}

/**
 * Renders `template` with `context` (plain JSON-like data): its text, or the error as a value.
 * An undefined name renders as nothing, as Jinja's default Undefined does.
 */
export function render(template: string, context: Record<string, unknown>, bounds: Bounds = DEFAULT_BOUNDS): Rendered {
  try {
    const env = new Environment();
    for (const [name, value] of Object.entries(CONSTANTS)) env.set(name, value);
    for (const [key, value] of Object.entries(context)) env.set(key, value);
    env.set("range", range);
    const out = new BoundedInterpreter(env, bounds).run(program(template));
    return { ok: true, value: String(out.value) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
