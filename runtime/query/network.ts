// Parsing of IP addresses and networks from request values, via ipaddr.js. Gives
// normalised text PostgreSQL accepts, or null for anything that is not an address:
// callers turn null into a 400, so bad CIDRs never reach the database.
import ipaddr from "ipaddr.js";

/** `10.0.0.1/24` → `10.0.0.0/24` (host bits dropped), or null. A bare address gets the full mask. */
export function parseNetwork(value: string): string | null {
  const v = value.trim();
  try {
    if (v.includes("/")) {
      if (!ipaddr.isValidCIDR(v)) return null;
      const [addr, len] = ipaddr.parseCIDR(v);
      const bytes = addr.toByteArray();
      let bits = len;
      for (let i = 0; i < bytes.length; i++) {
        const keep = Math.max(0, Math.min(8, bits));
        bytes[i] &= keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
        bits -= 8;
      }
      return `${ipaddr.fromByteArray(bytes).toString()}/${len}`;
    }
    if (!ipaddr.isValid(v)) return null;
    const addr = ipaddr.parse(v);
    return `${addr.toString()}/${addr.kind() === "ipv4" ? 32 : 128}`;
  } catch {
    return null;
  }
}

/** An address with an optional mask, kept as given (`10.0.0.5/24`), or null. */
export function parseInterface(value: string): string | null {
  const v = value.trim();
  try {
    if (v.includes("/")) {
      if (!ipaddr.isValidCIDR(v)) return null;
      const [addr, len] = ipaddr.parseCIDR(v);
      return `${addr.toString()}/${len}`;
    }
    if (!ipaddr.isValid(v)) return null;
    return ipaddr.parse(v).toString();
  } catch {
    return null;
  }
}

export function maskLength(value: string): number | null {
  const slash = value.indexOf("/");
  return slash < 0 ? null : Number(value.slice(slash + 1));
}
