// The BGP app's own job, loaded only while PLUGINS enables the app (its jobs/ folder joins
// JOBS_ROOT): each peering should have its two endpoints. A peering with fewer is logged as a
// failure, so the result lists what needs finishing; nothing is written.
import { job } from "../../../runtime/features/jobs/define.js";

export const grouping = "BGP";

export const IncompletePeerings = job({
  name: "Peerings without two endpoints",
  description: "Finds the BGP peerings that have fewer than two peer endpoints.",
  readOnly: true,
  hasSensitiveVariables: false,
  variables: {},
  async run(_data, ctx) {
    const ends = new Map<string, number>();
    for (const e of await ctx.list("nautobot_bgp_models.peerendpoint", {})) {
      const peering = (e.peering as { id: string }).id;
      ends.set(peering, (ends.get(peering) ?? 0) + 1);
    }
    const peerings = await ctx.list("nautobot_bgp_models.peering", {});
    const incomplete = peerings.filter((p) => (ends.get(p.id as string) ?? 0) < 2);
    for (const p of incomplete) await ctx.log_failure(p, `has ${ends.get(p.id as string) ?? 0} endpoint(s)`);
    if (!incomplete.length) await ctx.log_success("Every peering has its two endpoints.");
    return `${incomplete.length} of ${peerings.length} peering(s) without two endpoints`;
  },
});
