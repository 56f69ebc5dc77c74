// A data-quality check: every active device should be reachable at a primary IP address.
// Each device without one is logged as a failure (the run then ends `failed`), so the
// job's result lists exactly what needs fixing; nothing is written.
import { job, vars } from "../runtime/features/jobs/define.js";

export const grouping = "Data quality";

export const DevicesWithoutPrimaryIp = job({
  name: "Devices without a primary IP",
  description: "Finds the devices that have no primary IPv4 or IPv6 address.",
  readOnly: true,
  hasSensitiveVariables: false,
  variables: {
    site: vars.object("dcim.site", { description: "Only the devices of this site", required: false }),
    statuses: vars.multiChoice([["active", "Active"], ["planned", "Planned"], ["staged", "Staged"], ["offline", "Offline"]], {
      description: "Only devices with these statuses (active when none is chosen)", required: false,
    }),
  },
  async run(data, ctx) {
    const statuses = data.statuses?.length ? data.statuses : ["active"];
    const devices = await ctx.list("dcim.device", { has_primary_ip: false, status: statuses, ...(data.site ? { site_id: data.site.id } : {}) });
    for (const device of devices) await ctx.log_failure(device, "has no primary IP address");
    if (!devices.length) await ctx.log_success(`Every ${statuses.join(" or ")} device has a primary IP address.`);
    return `${devices.length} device(s) without a primary IP`;
  },
});
