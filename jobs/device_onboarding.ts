// Onboards devices from a JSON list, through the same pipeline as the API: each device is
// created (validated, permission-checked, change-logged, webhooks sent) with, when given, a
// management interface and its primary IPv4 address. A device whose name the site has
// already is left alone. Every write is one transaction: a device that fails rolls all back.
import { job, vars } from "../runtime/features/jobs/define.js";

export const grouping = "Onboarding";

interface Onboarded {
  name: string;
  device_type: string;
  device_role: string;
  site?: string;
  status?: string;
  serial?: string;
  platform?: string;
  /** The management interface's name and its address with mask (`192.0.2.10/24`), made the primary IPv4. */
  interface?: string;
  primary_ip4?: string;
}

/** A related object given by slug (or by id) as the API takes it. */
const bySlug = (value: string) => (/^[0-9a-f-]{36}$/i.test(value) ? value : { slug: value });

export const DeviceOnboarding = job({
  name: "Device onboarding",
  description: `Creates devices from a JSON list of objects:
name, device_type, device_role and (unless a site is chosen) site as slugs; status (active by default), serial, platform;
interface and primary_ip4 (address with mask) to give the device a management address.`,
  hasSensitiveVariables: false,
  variables: {
    devices: vars.text({ description: "A JSON list of devices (see the job's description)" }),
    site: vars.object("dcim.site", { description: "The site of devices that name none", required: false }),
    interface_type: vars.choice([["virtual", "Virtual"], ["1000base-t", "1000BASE-T (1GE)"], ["10gbase-x-sfpp", "SFP+ (10GE)"]], {
      description: "The type of the management interfaces (virtual when not given)", required: false,
    }),
  },
  async run(data, ctx) {
    let list: unknown;
    try {
      list = JSON.parse(data.devices ?? "");
    } catch (err) {
      await ctx.log_failure(`The devices are no JSON: ${(err as Error).message}`);
      return;
    }
    if (!Array.isArray(list)) {
      await ctx.log_failure("The devices must be a JSON list of objects.");
      return;
    }
    let created = 0;
    for (const [i, raw] of list.entries()) {
      const d = raw as Onboarded;
      const site = d.site ? bySlug(d.site) : data.site?.id;
      if (!d?.name || !site) {
        await ctx.log_failure(`Device ${i + 1}: needs a name and a site.`);
        continue;
      }
      const siteId = typeof site === "string" ? site : (await ctx.get("dcim.site", site))?.id;
      if (siteId && await ctx.get("dcim.device", { name: d.name, site_id: siteId })) {
        await ctx.log_warning(`${d.name}: the site has a device of that name already; left as it is.`);
        continue;
      }
      const device = await ctx.create("dcim.device", {
        name: d.name, device_type: bySlug(d.device_type), device_role: bySlug(d.device_role), site,
        status: d.status ?? "active", ...(d.serial ? { serial: d.serial } : {}), ...(d.platform ? { platform: bySlug(d.platform) } : {}),
      });
      if (d.interface && d.primary_ip4) {
        const iface = await ctx.create("dcim.interface", { device: device.id, name: d.interface, type: data.interface_type || "virtual", status: "active" });
        const ip = await ctx.create("ipam.ipaddress", { address: d.primary_ip4, status: "active", assigned_object_type: "dcim.interface", assigned_object_id: iface.id });
        await ctx.update("dcim.device", device.id, { primary_ip4: ip.id });
        await ctx.log_success(device, `created, ${d.interface} ${d.primary_ip4} as its primary IPv4`);
      } else await ctx.log_success(device, "created");
      created += 1;
    }
    return `${created} of ${list.length} devices created`;
  },
});
