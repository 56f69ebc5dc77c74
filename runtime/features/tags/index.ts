// Tags: one assignment table for every tagged model, a tag's scope of content types, and the
// `tags` field kind that reads and writes a model's tags (kind.ts).
import type { Feature } from "../types.js";
import { tags } from "./kind.js";

export const feature = { name: "tags", kinds: { tags } } satisfies Feature;
