// The engine's problems (runtime/problems.ts) in the words Nautobot's stack gives them: DRF's
// serializer fields and validators, Django's forms and model validation, Nautobot's own
// checks. Takes a problem, gives its text; an error tree, gives the body DRF would send.
import { pyRepr } from "../../text/python.js";
import { plural } from "../../text/plural.js";
import { wordTree, type CustomFieldReason, type ErrorTree, type Leaf, type Problem } from "../../problems.js";

/** Python's name for a JSON value's type, as DRF's messages name it. */
export function pyType(v: unknown): string {
  if (v === null) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return "dict";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return typeof v === "string" ? "str" : typeof v === "boolean" ? "bool" : typeof v;
}

/**
 * A dictionary of attributes as Nautobot's dict_to_filter_params makes it into lookups, the form
 * its nested-lookup messages print: a dictionary within is flattened into `key__inner` keys.
 */
function filterParams(v: unknown, prefix = ""): unknown {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x !== null && typeof x === "object" && !Array.isArray(x)) Object.assign(out, filterParams(x, `${prefix}${k}__`));
    else out[prefix + k] = x;
  }
  return out;
}

/** Python's `str()` of a JSON value, as f-strings print it. */
export function pyStr(v: unknown): string {
  return typeof v === "string" ? v : pyRepr(v);
}

/** Django's `capfirst`: the first character upper-case, the rest as written. */
const capfirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A field's Django `verbose_name`: as declared, else the name with spaces for underscores. */
const verbose = (f: { name: string; verboseName?: string }) => f.verboseName ?? f.name.replace(/_/g, " ");

/** Django's `get_text_list(items, "and")`: `A, B and C`. */
function textList(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The duplicate's words: Django's model validation capitalises each name, DRF's validators do not. */
function unique(p: Extract<Problem, { code: "unique" }>): string {
  if (p.by === "django") return `${capfirst(p.model)} with this ${textList(p.fields.map((f) => capfirst(verbose(f))))} already exists.`;
  return p.message ?? `${p.model} with this ${verbose(p.fields[0])} already exists.`;
}

/** DRF's words for a relationship end Nautobot names in cardinality messages. */
const DIRECTION = { destination: "to", source: "from", peer: "involving" } as const;

/** A custom field's value refused as Nautobot's CustomField.validate words it. */
export function wordCustomFieldReason(r: CustomFieldReason): string {
  switch (r.code) {
    case "empty": return "Required field cannot be empty.";
    case "not_a_string": return "Value must be a string";
    case "regex": return `Value must match regex '${r.regex}'`;
    case "not_an_integer": return "Value must be an integer.";
    case "below_minimum": return `Value must be at least ${r.limit}`;
    case "above_maximum": return `Value must not exceed ${r.limit}`;
    case "not_a_boolean": return "Value must be true or false.";
    case "date_format": return "Date values must be in the format YYYY-MM-DD.";
    case "invalid_choice": return `Invalid choice (${pyStr(r.value)}). Available choices are: ${r.choices.join(", ")}`;
    case "invalid_choices": return `Invalid choice(s) (${pyStr(r.value)}). Available choices are: ${r.choices.join(", ")}`;
  }
}

/** Each problem in DRF's (or Django's, or Nautobot's) words, by code. */
const WORDS: { [C in Problem["code"]]: (p: Extract<Problem, { code: C }>) => string } = {
  required: () => "This field is required.",
  null: () => "This field may not be null.",
  blank: () => "This field may not be blank.",
  invalid_integer: () => "A valid integer is required.",
  invalid_number: () => "A valid number is required.",
  invalid_boolean: () => "Must be a valid boolean.",
  invalid_string: () => "Not a valid string.",
  invalid_uuid: () => "Must be a valid UUID.",
  invalid_email: () => "Enter a valid email address.",
  invalid_url: () => "Enter a valid URL.",
  invalid_color: () => "Enter a valid hexadecimal RGB color code.",
  invalid_date_format: () => "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.",
  invalid_datetime_format: () => "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].",
  invalid_value: (p) => p.message ?? "Enter a valid value.",
  schema_violation: (p) => p.message ?? "Invalid value.",
  not_a_list: (p) => `Expected a list of items but got type "${pyType(p.given)}".`,
  not_a_dict: (p) => `Expected a dictionary of items but got type "${pyType(p.given)}".`,
  not_an_object: (p) => `Invalid data. Expected a dictionary, but got ${pyType(p.given)}.`,
  max_length: (p) => `Ensure this field has no more than ${p.limit} characters.`,
  not_a_file: () => "The submitted data was not a file. Check the encoding type on the form.",
  no_filename: () => "No filename could be determined.",
  empty_file: () => "The submitted file is empty.",
  filename_too_long: (p) => `Ensure this filename has at most ${p.limit} characters (it has ${p.length}).`,
  file_too_large: (p) => `The submitted file is larger than the limit of ${p.limit} bytes.`,
  invalid_image: () => "Upload a valid image. The file you uploaded was either not an image or a corrupted image.",
  min_length: (p) => `Ensure this field has at least ${p.limit} characters.`,
  max_value: (p) => `Ensure this value is less than or equal to ${p.limit}.`,
  min_value: (p) => `Ensure this value is greater than or equal to ${p.limit}.`,
  string_too_large: () => "String value too large.",
  max_digits: (p) => `Ensure that there are no more than ${p.limit} digits in total.`,
  max_decimal_places: (p) => `Ensure that there are no more than ${p.limit} decimal places.`,
  max_whole_digits: (p) => `Ensure that there are no more than ${p.limit} digits before the decimal point.`,
  choice_not_scalar: () => 'Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.',
  // DRF's own ChoiceField (a plain choice) quotes the value; Nautobot's does not.
  invalid_choice: (p) => p.plain ? `"${String(p.value)}" is not a valid choice.` : `${String(p.value)} is not a valid choice.`,
  invalid_network: (p) => `Enter a valid IPv4 or IPv6 network in CIDR notation: ${String(p.value)}`,
  invalid_ip_address: (p) => `Invalid IP address format: ${String(p.value)}`,
  null_characters: () => "Null characters are not allowed.",
  unknown_field: () => "Unknown field.",
  invalid_items: () => "Invalid items.",
  parent_is_self_or_child: () => "Cannot assign self or child as parent.",
  content_type_format: () => "Invalid value. Specify a content type as '<app_label>.<model_name>'.",
  invalid_content_type: (p) => `Invalid content type: ${p.value}`,
  content_type_in_use: (p) => `Unable to remove ${p.label}. Dependent objects were found.`,
  related_not_found_by_id: (p) => `Related object not found using the provided ID: ${String(p.value)}`,
  related_not_found_by_attributes: (p) => `Related object not found using the provided attributes: ${pyRepr(filterParams(p.value))}`,
  related_multiple_match: (p) => `Multiple objects match the provided attributes: ${pyRepr(filterParams(p.value))}`,
  related_unrecognized: (p) => `Related objects must be referenced by ID or by dictionary of attributes. Received an unrecognized value: ${typeof p.value === "string" ? p.value : JSON.stringify(p.value)}`,
  related_objects_not_found: () => "Related objects not found.",
  pk_wrong_type: (p) => `Incorrect type. Expected pk value, received ${pyType(p.given)}.`,
  invalid_pk: (p) => `Invalid pk "${p.value === null ? "None" : String(p.value)}" - object does not exist.`,
  pk_not_uuid: (p) => `“${typeof p.value === "string" ? p.value : JSON.stringify(p.value)}” is not a valid UUID.`,
  slug_not_string: () => "Invalid value.",
  slug_not_found: (p) => `Object with slug=${p.slug} does not exist.`,
  default_status_missing: (p) => `${p.model} default status '${p.slug}' does not exist, create '${p.slug}' status for ${p.model} or use the latest api_version`,
  unique: (p) => unique(p),
  unique_set: (p) => `The fields ${p.fields.join(", ")} must make a unique set.`,
  invalid_db_value: (p) => `Invalid value: ${p.reason}`,
  custom_fields_not_a_dict: () => "Expected a dictionary of custom field values.",
  custom_field_invalid: (p) => `Invalid value for custom field '${p.name}': ${wordCustomFieldReason(p.reason)}`,
  custom_field_missing: (p) => `Missing required custom field '${p.name}'.`,
  custom_field_default_invalid: (p) => `Invalid default value "${pyStr(p.value)}": ${wordCustomFieldReason(p.reason)}`,
  not_a_relationship: (p) => `"${p.slug}" is not a relationship on ${p.model}`,
  invalid_relationship_side: (p) => `"${p.side}" is not a valid side for "${p.relationship}" on ${p.model}`,
  relationship_objects_missing: (p) => `"objects" must be specified under ["${p.slug}"]["${p.side}"] when present`,
  relationship_objects_not_a_list: () => '"objects" must be a list, not a single value',
  relationship_too_many: (p) => `For "${p.relationship}", "${p.side}" objects must include at most a single object`,
  relationship_required_none_exist: (p) => `${capfirst(plural(p.model))} require ${p.many ? "at least one" : "a"} ${p.other}, but no ${plural(p.other)} exist yet. ` +
    `Create a ${p.other} by posting to ${p.url}`,
  relationship_required: (p) => `You need to specify ["relationships"]["${p.slug}"]["${p.side}"]["objects"].`,
  association_type_mismatch: (p) => `${p.side}_type has a different value than defined in ${p.relationship}`,
  association_with_itself: () => "An object cannot form a RelationshipAssociation with itself",
  association_exists: (p) => `A ${p.relationship} association already exists between ${p.source} and ${p.destination}`,
  association_cardinality: (p) => `Unable to create more than one ${p.relationship} association ${DIRECTION[p.end]} ${p.object} (${p.end})`,
  association_filter: (p) => `${p.object} violates ${p.relationship} ${p.side}_filter restriction`,
  invalid_constraint: (p) => `Invalid filter for ${p.model}: ${p.reason}`,
  unknown_filter: () => "Unknown filter field",
  filter_single_value: () => "Only one value may be given for this filter.",
  filter_invalid_uuid: () => "Enter a valid UUID.",
  filter_whole_number: () => "Enter a whole number.",
  filter_number: () => "Enter a number.",
  filter_date: () => "Enter a valid date.",
  filter_datetime: () => "Enter a valid date/time.",
  filter_invalid_choice: (p) => `Select a valid choice. ${p.value} is not one of the available choices.`,
  filter_invalid_value: (p) => `“${p.value}” is not a valid value.`,
  filter_invalid_regex: (p) => `"${p.value}" is not a valid regular expression.`,
  filter_mask_length: () => "Enter a whole number between 0 and 128.",
  filter_ip_address: () => "Enter a valid IPv4 or IPv6 address.",
  filter_network: () => "Enter a valid IPv4 or IPv6 network in CIDR notation.",
  filter_parameter_invalid: (p) => `'${p.param}': ${p.problems.map(wordProblem).join(", ")}`,
  invalid_token: () => "Invalid token",
  token_expired: () => "Token expired",
  user_inactive: () => "User inactive",
  not_found: () => "Not found.",
  forbidden: () => "You do not have permission to perform this action.",
  invalid_cursor: () => "Invalid cursor",
  export_template_error: (p) => `There was an error rendering the selected export template (${p.name}): ${p.error}`,
  protected: (p) => `Unable to delete object. ${p.dependents.length} dependent objects were found: ${p.dependents.map((d) => `${d.display} (${d.id})`).join(", ")}`,
  integrity: () => "Unable to complete the operation: a related object is referenced by, or missing for, another object.",
  precondition_failed: (p) => `This object does not conform to pre-${p.version} behavior. Please correct data or use API version ${p.version}`,
};

export function wordProblem(p: Problem): string {
  return (WORDS[p.code] as (problem: Problem) => string)(p);
}

/** A leaf in DRF's words: a problem worded, text (a hook's, or this profile's) as it is. */
export const wordLeaf = (leaf: Leaf): string => (typeof leaf === "string" ? leaf : wordProblem(leaf));

/** The body DRF sends for an error tree (or a list of them, for a bulk body). */
export function wordErrors(errors: ErrorTree | Record<string, ErrorTree> | Array<Record<string, ErrorTree>>): unknown {
  return wordTree(errors, wordLeaf);
}
