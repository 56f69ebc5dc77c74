// A job-hook receiver that checks each device as it is created or changed: an active device
// should have a primary IP, a serial and a platform. Each gap is logged as a failure (the
// hook's run then ends `failed`), so the job results of the hook list the devices to fix as
// they appear, without waiting for the next full data-quality run. Writes nothing.
import { jobHookReceiver } from "../runtime/features/jobs/define.js";

export const grouping = "Data quality";

export const DeviceChangeCheck = jobHookReceiver({
  name: "Device change check",
  description: "Run by a job hook on dcim.device: checks a created or changed active device has a primary IP, a serial and a platform.",
  readOnly: true,
  hasSensitiveVariables: false,
  async receiveJobHook(change, action, device, ctx) {
    if (change.changed_object_type !== "dcim.device") {
      await ctx.log_warning(`Only devices are checked; this hook's change is of ${String(change.changed_object_type)}.`);
      return "skipped";
    }
    if (!device) {
      await ctx.log_info(`${String(change.object_repr)} was deleted (${action}): nothing to check.`);
      return "deleted";
    }
    const status = (device.status as { value?: string } | null)?.value;
    if (status !== "active") {
      await ctx.log_info(device, `is ${status ?? "without a status"}: only active devices are checked.`);
      return "not active";
    }
    const gaps = [
      ...(!device.primary_ip4 && !device.primary_ip6 ? ["has no primary IP address"] : []),
      ...(!device.serial ? ["has no serial number"] : []),
      ...(!device.platform ? ["has no platform"] : []),
    ];
    for (const gap of gaps) await ctx.log_failure(device, gap);
    if (!gaps.length) await ctx.log_success(device, "has a primary IP, a serial and a platform.");
    return `${gaps.length} gap(s)`;
  },
});
