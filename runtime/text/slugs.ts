// Slugs made from text, one function per rule a profile's original follows.

/**
 * Django's `slugify` (Nautobot's slugs): NFKD; drop what is not a word character, space or
 * dash; lower-case; runs of spaces and dashes become one dash. May give "".
 */
export function slugify(value: string): string {
  return value.normalize("NFKD").replace(/[^\w\s-]/g, "").trim().toLowerCase().replace(/[-\s]+/g, "-");
}

/**
 * WordPress's `sanitize_title` (post and term slugs): accents removed, lower-case, HTML
 * entities dropped, only a-z, 0-9 and dashes kept, no dash at either end; an empty result
 * is "untitled".
 */
export function sanitizeTitle(text: string): string {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/&[a-z]+;/g, "").replace(/[^a-z0-9\s-]/g, "").trim().replace(/[\s-]+/g, "-").replace(/^-|-$/g, "") || "untitled";
}
