// Nautobot's Service.full_clean, as its serializer reaches it once every field is valid: the
// protocol and the ports may not be left blank (the serializer lets both through), and a
// service belongs to a device or to a virtual machine, never both.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import type { IpamService } from "../../../generated/inventory/rows.js";

export function beforeSave({ after: service }: SaveEvent<IpamService>): void {
  const problems: Record<string, string> = {};
  if (!service.protocol) problems.protocol = "This field cannot be blank.";
  if (Array.isArray(service.ports) && service.ports.length === 0) problems.ports = "This field cannot be blank.";
  if (service.device && service.virtual_machine) problems.__all__ = "A service cannot be associated with both a device and a virtual machine.";
  else if (!service.device && !service.virtual_machine) problems.__all__ = "A service must be associated with either a device or a virtual machine.";
  if (Object.keys(problems).length) throw new Refusal(problems);
}
