// A VM interface's MAC address is kept as a device interface's. Nautobot 1.5 checks nothing
// else of a VM interface through the API 1.2/1.3 serializer without VLANs: its parent and
// bridge may be any VM interface (the same-machine rules are its forms' alone).
import type { SaveEvent } from "../../../runtime/hooks.js";
import { normalizeMac } from "../dcim/mac.js";

export function beforeSave({ values }: SaveEvent): void {
  normalizeMac(values);
}
