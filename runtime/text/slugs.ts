// Slugs made from text.

/** Django's `slugify`: NFKD, drop what is not a word character, space or dash, lower-case, dashes for runs of spaces and dashes. */
export function slugify(value: string): string {
  return value.normalize("NFKD").replace(/[^\w\s-]/g, "").trim().toLowerCase().replace(/[-\s]+/g, "-");
}
