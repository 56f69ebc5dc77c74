// Nautobot's MACAddressCharField, shared by device and VM interfaces: any common notation in,
// upper-case colon-separated stored and shown; and the filters that match any spelling.
import { Refusal } from "../../../runtime/hooks.js";

/** The notations a MAC address is written in: colons, dashes, Cisco's dotted quads, bare hex. */
const MAC_FORMS = [/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i, /^([0-9a-f]{2}-){5}[0-9a-f]{2}$/i, /^([0-9a-f]{4}\.){2}[0-9a-f]{4}$/i, /^[0-9a-f]{12}$/i];

/** A MAC address as Nautobot shows it (`00:1A:2B:3C:4D:5E`), or null when `value` is none. */
function mac(value: string): string | null {
  const v = value.trim();
  if (!MAC_FORMS.some((form) => form.test(v))) return null;
  return v.replace(/[:.\-]/g, "").toUpperCase().match(/../g)!.join(":");
}

/** Nautobot's MACAddressCharField on write (device and VM interfaces): blank is none, any notation is stored in one. */
export function normalizeMac(values: Record<string, unknown>): void {
  if (typeof values.mac_address !== "string") return;
  if (values.mac_address === "") values.mac_address = null;
  else {
    const normal = mac(values.mac_address);
    if (!normal) throw new Refusal({ mac_address: "Enter a valid MAC address." });
    values.mac_address = normal;
  }
}

/** A MAC address's hex digits, upper-case: the form two spellings of one address share. */
export const macDigits = (sql: string) => `upper(regexp_replace(${sql}, '[^0-9A-Fa-f]', '', 'g'))`;

