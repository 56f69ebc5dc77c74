// Parsing of IP addresses and networks from request values, via ipaddr.js. Gives
// normalised text PostgreSQL accepts, or null for anything that is not an address:
// callers turn null into a 400, so bad CIDRs never reach the database.
import ipaddr from "ipaddr.js";

/**
 * A bare address in its standard form only: ipaddr.js also reads inet_aton shorthands such
 * as `1.2.3` (1.2.0.3), which PostgreSQL's cidr reads differently (1.2.3.0/24), so IPv4 must
 * be a full dotted quad, as netaddr's inet_pton mode has it. An IPv6 address takes no zone.
 */
function isStrictAddress(v: string): boolean {
  // ipaddr.js keeps an IPv6 zone (`fe80::1%eth0`) that inet and cidr refuse, as netaddr does.
  return v.includes(":") ? !v.includes("%") && ipaddr.IPv6.isValid(v) : ipaddr.IPv4.isValidFourPartDecimal(v);
}

/** An `address/length` whose address is strict and whose length is plain digits. */
function isStrictCidr(v: string): boolean {
  const slash = v.indexOf("/");
  return isStrictAddress(v.slice(0, slash)) && /^\d{1,3}$/.test(v.slice(slash + 1)) && ipaddr.isValidCIDR(v);
}

/** A dotted quad in its standard form (no leading zeros), with an optional mask length. */
const IPV4 = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})(?:\/(\d{1,3}))?$/;

/**
 * `parseNetwork` of a valid IPv4 network, computed on its 32 bits; undefined for anything else.
 * ipaddr.js reads every address as IPv6 first and throws to fall back to IPv4, a bulk create
 * of 1,000 prefixes spent 4 % of its time in it.
 */
function ipv4Network(v: string): string | undefined {
  const m = IPV4.exec(v);
  if (!m) return undefined;
  const octets = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  const len = m[5] === undefined ? 32 : Number(m[5]);
  if (octets.some((o) => o > 255) || len > 32) return undefined;
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  const net = (((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) & mask) >>> 0;
  return `${net >>> 24}.${(net >>> 16) & 255}.${(net >>> 8) & 255}.${net & 255}/${len}`;
}

/** `10.0.0.1/24` → `10.0.0.0/24` (host bits dropped), or null. A bare address gets the full mask. */
export function parseNetwork(value: string): string | null {
  const v = value.trim();
  const ipv4 = ipv4Network(v);
  if (ipv4 !== undefined) return ipv4;
  try {
    if (v.includes("/")) {
      if (!isStrictCidr(v)) return null;
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
    if (!isStrictAddress(v)) return null;
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
      if (!isStrictCidr(v)) return null;
      const [addr, len] = ipaddr.parseCIDR(v);
      return `${addr.toString()}/${len}`;
    }
    if (!isStrictAddress(v)) return null;
    return ipaddr.parse(v).toString();
  } catch {
    return null;
  }
}

export function maskLength(value: string): number | null {
  const slash = value.indexOf("/");
  return slash < 0 ? null : Number(value.slice(slash + 1));
}

/**
 * The networks a free-text search term could mean, as Nautobot's `string_search` reads it:
 * a partial dotted IPv4 (`10.1` → 10.1.0.0/16), a partial colon IPv6 (`2001:db8` →
 * 2001:db8::/32), a whole address or CIDR, and a bare number tried as both a first octet
 * (below 256) and a first hextet. Anything else means no network.
 */
export function partialNetworks(term: string): string[] {
  const v = term.trim().replace(/[.:]+$/, "");
  const out = new Set<string>();
  const whole = parseNetwork(v);
  if (whole) out.add(whole);
  const octets = v.split(".");
  if (/^\d{1,3}(\.\d{1,3}){0,3}$/.test(v) && octets.every((o) => Number(o) <= 255)) {
    out.add(`${[...octets, "0", "0", "0"].slice(0, 4).join(".")}/${8 * octets.length}`);
  }
  const hextets = v.split(":");
  // A lone hextet only when it is a number: a word such as "cafe" is text, not an address.
  if (/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){0,7}$/i.test(v) && (hextets.length > 1 || /^\d{1,4}$/.test(v))) {
    const padded = [...hextets, ...Array(8 - hextets.length).fill("0")].join(":");
    const net = parseNetwork(`${padded}/${16 * hextets.length}`);
    if (net) out.add(net);
  }
  return [...out];
}
