// A report of how full the prefixes are: for each prefix, the share of its space its child
// prefixes take (a container) or its IP addresses (any other prefix), as Nautobot's
// Prefix.get_utilization counts them, with a warning for each prefix above a threshold.
import { job, vars, type ApiObject, type Filters } from "../runtime/features/jobs/define.js";

export const grouping = "IPAM reports";

/** A network's first and last address as numbers. */
function range(prefix: string): [bigint, bigint] {
  const [address, length] = prefix.split("/");
  const v6 = address.includes(":");
  const bits = v6 ? 128 : 32;
  let value: bigint;
  if (v6) {
    const [head, tail] = address.includes("::") ? address.split("::") : [address, ""];
    const h = head ? head.split(":") : [];
    const t = tail ? tail.split(":") : [];
    value = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t].reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
  } else value = address.split(".").reduce((n, x) => (n << 8n) | BigInt(Number(x)), 0n);
  const span = 1n << BigInt(bits - Number(length));
  return [value, value + span - 1n];
}

/** How many addresses the networks cover together, overlaps counted once (netaddr's IPSet size). */
function covered(prefixes: string[]): bigint {
  const ranges = prefixes.map(range).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let total = 0n;
  let end = -1n;
  for (const [lo, hi] of ranges) {
    if (hi <= end) continue;
    total += hi - (lo > end ? lo : end + 1n) + 1n;
    end = hi;
  }
  return total;
}

/** The space counted as usable: an IPv4 prefix that is no pool and longer than /31 leaves out its network and broadcast addresses. */
function usable(p: ApiObject): bigint {
  const prefix = String(p.prefix);
  const [lo, hi] = range(prefix);
  const whole = hi - lo + 1n;
  return !prefix.includes(":") && !p.is_pool && Number(prefix.split("/")[1]) < 31 ? whole - 2n : whole;
}

export const PrefixUtilisation = job({
  name: "Prefix utilisation",
  description: "How much of each prefix is in use: child prefixes of a container, addresses of any other prefix. Warns above the threshold.",
  readOnly: true,
  hasSensitiveVariables: false,
  variables: {
    within: vars.ipNetwork({ description: "Only this prefix and those inside it", required: false }),
    site: vars.object("dcim.site", { description: "Only the prefixes of this site", required: false }),
    threshold: vars.integer({ description: "Warn about prefixes used above this percentage (80 when not given)", minValue: 1, maxValue: 100, required: false }),
  },
  async run(data, ctx) {
    const threshold = data.threshold ?? 80;
    const prefixes = await ctx.list("ipam.prefix", {
      ...(data.within ? { within_include: data.within } : {}),
      ...(data.site ? { site_id: data.site.id } : {}),
    });
    let above = 0;
    for (const p of prefixes) {
      const prefix = String(p.prefix);
      const sameVrf: Filters = p.vrf ? { vrf_id: String((p.vrf as ApiObject).id) } : { vrf: "null" };
      const container = (p.status as { value?: string } | null)?.value === "container";
      const used = container
        ? covered((await ctx.list("ipam.prefix", { within: prefix, ...sameVrf })).map((c) => String(c.prefix)))
        : BigInt((await ctx.list("ipam.ipaddress", { parent: prefix, ...sameVrf })).length);
      const room = container ? usable({ ...p, is_pool: true }) : usable(p);
      const percent = room > 0n ? Number((used * 10000n) / room) / 100 : 100;
      const line = `${percent}% used (${used} of ${room} addresses)`;
      if (percent > threshold) {
        above += 1;
        await ctx.log_warning(p, line);
      } else await ctx.log_success(p, line);
    }
    return `${prefixes.length} prefixes, ${above} above ${threshold}%`;
  },
});
