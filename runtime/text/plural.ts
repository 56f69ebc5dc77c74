// English plurals of model names, as Django forms them when a model gives none of its own.

/** Django's default plural of a verbose name. */
export const plural = (name: string): string => `${name}${/(s|x|z|ch|sh)$/.test(name) ? "es" : "s"}`;
