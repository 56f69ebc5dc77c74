// Jobs the end-to-end tests run (test/e2e/jobs.test.ts), beside the shipped ones: one taking
// every kind of variable, one that writes a tag (counted, rolled back, refused), one that
// fails in each of Nautobot's two ways, one that waits for the test to let it go on, and one
// that logs many lines at once.
import { job, vars } from "../../runtime/features/jobs/define.js";

export const grouping = "API tests";

interface Gate { open(): void; waiting: Promise<void>; reset(): void }

/**
 * Lets a waiting job go on. Process-wide: the test's import of this module and the jobs
 * catalog's may be two instances of it (CommonJS and ES module loads).
 */
export const gate: Gate = ((globalThis as Record<symbol, Gate | undefined>)[Symbol.for("armature.test.jobs.gate")] ??= {
  open: () => undefined,
  waiting: new Promise<void>(() => undefined),
  reset() {
    this.waiting = new Promise<void>((resolve) => { this.open = resolve; });
  },
});

export const EveryVariable = job({
  name: "Every variable",
  description: "Takes one variable of each kind and logs what it was given.",
  hasSensitiveVariables: false,
  variables: {
    text: vars.string({ label: "Some text", description: "Three to ten letters", minLength: 3, maxLength: 10, regex: "^[a-z]+$" }),
    notes: vars.text({ required: false }),
    count: vars.integer({ minValue: 1, maxValue: 5, default: 2 }),
    flag: vars.boolean(),
    colour: vars.choice([["red", "Red"], ["green", "Green"]]),
    colours: vars.multiChoice([["red", "Red"], ["green", "Green"], ["blue", "Blue"]], { required: false }),
    site: vars.object("dcim.site"),
    tags: vars.multiObject("extras.tag", { required: false, queryParams: { q: "" } }),
    address: vars.ipAddress({ required: false }),
    interface_address: vars.ipAddressWithMask({ required: false }),
    network: vars.ipNetwork({ required: false, minPrefixLength: 8, maxPrefixLength: 30 }),
    upload: vars.file({ required: false }),
  },
  async run(data, ctx) {
    await ctx.log_info(data.site, `site ${data.site?.name}`);
    await ctx.log_debug(JSON.stringify({ ...data, site: data.site?.id, tags: data.tags?.map((t) => t.id) }));
    return { count: data.count };
  },
});

export const TagWriter = job({
  name: "Tag writer",
  description: "Creates a tag (named by its data) and logs it; with `fail`, then throws.",
  hasSensitiveVariables: false,
  variables: { name: vars.string(), fail: vars.boolean() },
  async run(data, ctx) {
    const tag = await ctx.create("extras.tag", { name: data.name, content_types: ["dcim.site"] });
    await ctx.log_success(tag, "created");
    if (data.fail) throw new TypeError("told to fail");
    return tag.name;
  },
});

export const FailureLogger = job({
  name: "Failure logger",
  description: "Logs a failure, which marks the run failed.",
  commitDefault: false,
  async run(_data, ctx) {
    await ctx.log_warning("about to fail");
    await ctx.log_failure("something is wrong");
  },
});

export const Waiter = job({
  name: "Waiter",
  description: "Logs, waits for the test's gate, logs again.",
  async run(_data, ctx) {
    await ctx.log_info("waiting");
    await gate.waiting;
    await ctx.log_info("let go");
  },
});

export const ManyLines = job({
  name: "Many lines",
  description: "Logs `count` numbered lines as fast as it can.",
  hasSensitiveVariables: false,
  variables: { count: vars.integer({ minValue: 1, maxValue: 1000 }) },
  async run(data, ctx) {
    for (let i = 1; i <= data.count!; i++) await ctx.log_info(`line ${i}`);
  },
});

export const SensitiveApproval = job({
  name: "Sensitive and approved",
  description: "Has sensitive variables and needs approval: it can never run.",
  approvalRequired: true,
  async run() {
    return undefined;
  },
});
