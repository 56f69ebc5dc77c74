// Nautobot's Service.full_clean, as its serializer reaches it once every field is valid: the
// protocol and the ports may not be left blank (the serializer lets both through), and a
// service belongs to a device or to a virtual machine, never both.
import { Refusal, jsonValue, type SaveEvent } from "../../../runtime/hooks.js";

type Row = Record<string, unknown>;

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const service: Row = { ...current, ...values };
  const problems: Record<string, string> = {};
  if (!service.protocol) problems.protocol = "This field cannot be blank.";
  const ports = jsonValue(service.ports);
  if (Array.isArray(ports) && ports.length === 0) problems.ports = "This field cannot be blank.";
  if (service.device_id && service.virtual_machine_id) problems.__all__ = "A service cannot be associated with both a device and a virtual machine.";
  else if (!service.device_id && !service.virtual_machine_id) problems.__all__ = "A service must be associated with either a device or a virtual machine.";
  if (Object.keys(problems).length) throw new Refusal(problems);
}
