// Nautobot's Prefix.clean(): a /0 prefix would contain every other one.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";

export function beforeSave({ values }: SaveEvent): void {
  if (typeof values.prefix === "string" && values.prefix.endsWith("/0")) throw new Refusal({ prefix: "Cannot create prefix with /0 mask." });
}
