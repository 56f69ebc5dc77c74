// What the engine refuses, as data: a code and its parameters, never words. Each profile words
// problems in its own dialect (the DRF profile in DRF's and Django's texts, runtime/profiles/
// drf/wording.ts); the union is closed, so the compiler checks that a wording covers every code.
// Parameters are what the client sent (`given`, `value`) or what the data says (names, limits).
import type { Dependent } from "./descriptor.js";

export type { Dependent } from "./descriptor.js";

export type Problem =
  // A written value, as a serializer field refuses it.
  | { code: "required" }
  | { code: "null" }
  | { code: "blank" }
  | { code: "invalid_integer" }
  | { code: "invalid_number" }
  | { code: "invalid_boolean" }
  | { code: "invalid_string" }
  | { code: "invalid_uuid" }
  | { code: "invalid_email" }
  | { code: "invalid_url" }
  | { code: "invalid_color" }
  | { code: "invalid_date_format" }
  | { code: "invalid_datetime_format" }
  /** A value its rule refuses; `message` is the spec's own words for the rule, if it gave some. */
  | { code: "invalid_value"; message?: string }
  /** A schema rule with no wording of its own; `message` is the validator's. */
  | { code: "schema_violation"; message?: string }
  | { code: "not_a_list"; given: unknown }
  | { code: "not_a_dict"; given: unknown }
  /** A body, or an element of a bulk body, that is no object. */
  | { code: "not_an_object"; given: unknown }
  | { code: "max_length"; limit: number }
  // Uploads (image fields).
  | { code: "not_a_file" }
  | { code: "no_filename" }
  | { code: "empty_file" }
  | { code: "filename_too_long"; limit: number; length: number }
  | { code: "file_too_large"; limit: number }
  | { code: "invalid_image" }
  | { code: "min_length"; limit: number }
  | { code: "max_value"; limit: number | bigint }
  | { code: "min_value"; limit: number | bigint }
  | { code: "string_too_large" }
  | { code: "max_digits"; limit: number }
  | { code: "max_decimal_places"; limit: number }
  | { code: "max_whole_digits"; limit: number }
  /** A choice given as an object or a list rather than its bare value. */
  | { code: "choice_not_scalar" }
  /** `plain`: the field is a plain choice, not one of the API's own choice sets. */
  | { code: "invalid_choice"; value: unknown; plain: boolean }
  | { code: "invalid_network"; value: unknown }
  | { code: "invalid_ip_address"; value: unknown }
  | { code: "null_characters" }
  | { code: "unknown_field" }
  /** A list some of whose items are refused (the detail names them by index). */
  | { code: "invalid_items" }
  | { code: "parent_is_self_or_child" }
  // Content types.
  | { code: "content_type_format" }
  | { code: "invalid_content_type"; value: string }
  | { code: "content_type_in_use"; label: string }
  // Related objects.
  | { code: "related_not_found_by_id"; value: unknown }
  | { code: "related_not_found_by_attributes"; value: unknown }
  | { code: "related_multiple_match"; value: unknown }
  | { code: "related_unrecognized"; value: unknown }
  /** A list of related objects some of which are not found (the detail has one entry per item). */
  | { code: "related_objects_not_found" }
  | { code: "pk_wrong_type"; given: unknown }
  | { code: "invalid_pk"; value: unknown }
  | { code: "pk_not_uuid"; value: unknown }
  | { code: "slug_not_string" }
  | { code: "slug_not_found"; slug: string }
  /** A model's default status (`slug`) that no longer applies to it (`model`, its name). */
  | { code: "default_status_missing"; model: string; slug: string }
  // Uniqueness.
  /**
   * A duplicate of one field, or of a group (`fields` in declared order), refused by Django's
   * model validation (`by: "django"`) or a serializer's validator; `model` is its sentence name,
   * `message` the field's own words for it, if the spec gave some.
   */
  | { code: "unique"; by: "django" | "serializer"; model: string; fields: Array<{ name: string; verboseName?: string }>; message?: string }
  /** A duplicate of a group of fields a serializer's validator checks, named by field name. */
  | { code: "unique_set"; fields: string[] }
  /** A value the database itself refused; `reason` is its own explanation. */
  | { code: "invalid_db_value"; reason: string }
  // Custom fields.
  | { code: "custom_fields_not_a_dict" }
  | { code: "custom_field_invalid"; name: string; reason: CustomFieldReason }
  | { code: "custom_field_missing"; name: string }
  /** A custom field's default that its own rules refuse (a custom field definition's write). */
  | { code: "custom_field_default_invalid"; value: unknown; reason: CustomFieldReason }
  // Relationships of a written object.
  | { code: "not_a_relationship"; slug: string; model: string }
  | { code: "invalid_relationship_side"; side: string; relationship: string; model: string }
  | { code: "relationship_objects_missing"; slug: string; side: string }
  | { code: "relationship_objects_not_a_list" }
  | { code: "relationship_too_many"; relationship: string; side: string }
  /** No `other` object exists yet for `model` objects to require (`many`: at least one); `url` is where to create one. */
  | { code: "relationship_required_none_exist"; model: string; other: string; many: boolean; url: string }
  | { code: "relationship_required"; slug: string; side: string }
  // Relationship associations.
  | { code: "association_type_mismatch"; side: "source" | "destination"; relationship: string }
  | { code: "association_with_itself" }
  | { code: "association_exists"; relationship: string; source: string; destination: string }
  /** A second association at `object`, on the `end` of the relationship that holds one. */
  | { code: "association_cardinality"; relationship: string; object: string; end: "source" | "destination" | "peer" }
  | { code: "association_filter"; relationship: string; object: string; side: "source" | "destination" }
  // Object permissions.
  /** Constraints that do not apply to `model` (its key); `reason` is the engine's or the database's explanation. */
  | { code: "invalid_constraint"; model: string; reason: string }
  // Filter-set parameters.
  | { code: "unknown_filter" }
  | { code: "filter_single_value" }
  | { code: "filter_invalid_uuid" }
  | { code: "filter_whole_number" }
  | { code: "filter_number" }
  | { code: "filter_date" }
  | { code: "filter_datetime" }
  | { code: "filter_invalid_choice"; value: string }
  | { code: "filter_invalid_value"; value: string }
  | { code: "filter_invalid_regex"; value: string }
  | { code: "filter_mask_length" }
  | { code: "filter_ip_address" }
  | { code: "filter_network" }
  /** A stored filter's parameter `param` (a relationship side's filter) whose values its filter set refuses. */
  | { code: "filter_parameter_invalid"; param: string; problems: Problem[] }
  // Credentials (a token that names no usable identity).
  | TokenProblem
  // Refusals of a whole request (HttpError).
  | { code: "not_found" }
  | { code: "forbidden" }
  | { code: "invalid_cursor" }
  /** A list's export template `name` that failed to render, and why. */
  | { code: "export_template_error"; name: string; error: string }
  /** A delete that objects protecting the rows (`dependents`) refuse. */
  | { code: "protected"; dependents: Dependent[] }
  /** A write the database's foreign keys refused after the engine's own checks passed (a race). */
  | { code: "integrity" }
  /** An object the requested API version cannot show; `version` is the first that can. */
  | { code: "precondition_failed"; version: string };

export type TokenProblem = { code: "invalid_token" } | { code: "token_expired" } | { code: "user_inactive" };

/** Why a custom field's value is refused (Nautobot's CustomField.validate). */
export type CustomFieldReason =
  | { code: "empty" }
  | { code: "not_a_string" }
  | { code: "regex"; regex: string }
  | { code: "not_an_integer" }
  | { code: "below_minimum"; limit: number | string }
  | { code: "above_maximum"; limit: number | string }
  | { code: "not_a_boolean" }
  | { code: "date_format" }
  | { code: "invalid_choice"; value: unknown; choices: string[] }
  | { code: "invalid_choices"; value: unknown; choices: string[] };

export type ProblemCode = Problem["code"];

/**
 * A leaf of an error tree: a problem, or text already in the words of the one API that
 * answers. Only code that belongs to one API may write text here: its model hooks (a
 * `Refusal`) and its profile; the engine always gives a problem.
 */
export type Leaf = Problem | string;

/**
 * Errors as the engine reports them: lists of leaves, keyed by field (or by index, or per
 * item of a list), nested as the value written was.
 */
export type ErrorTree = Array<Leaf | ErrorTree> | { [key: string]: ErrorTree };

/** Whether a node of an error tree is a problem (an error record's values are never text). */
export function isProblem(node: unknown): node is Problem {
  return typeof node === "object" && node !== null && !Array.isArray(node) && typeof (node as { code?: unknown }).code === "string";
}

/** The tree with every leaf put in words by `word`. */
export function wordTree(tree: unknown, word: (leaf: Leaf) => string): unknown {
  if (typeof tree === "string" || isProblem(tree)) return word(tree);
  if (Array.isArray(tree)) return tree.map((x) => wordTree(x, word));
  if (typeof tree === "object" && tree !== null) return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, wordTree(v, word)]));
  return tree;
}
