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

export function wordProblem(p: Problem): string {
  switch (p.code) {
    case "required": return "This field is required.";
    case "null": return "This field may not be null.";
    case "blank": return "This field may not be blank.";
    case "invalid_integer": return "A valid integer is required.";
    case "invalid_number": return "A valid number is required.";
    case "invalid_boolean": return "Must be a valid boolean.";
    case "invalid_string": return "Not a valid string.";
    case "invalid_uuid": return "Must be a valid UUID.";
    case "invalid_email": return "Enter a valid email address.";
    case "invalid_url": return "Enter a valid URL.";
    case "invalid_color": return "Enter a valid hexadecimal RGB color code.";
    case "invalid_date_format": return "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.";
    case "invalid_datetime_format": return "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].";
    case "invalid_value": return p.message ?? "Enter a valid value.";
    case "schema_violation": return p.message ?? "Invalid value.";
    case "not_a_list": return `Expected a list of items but got type "${pyType(p.given)}".`;
    case "not_a_dict": return `Expected a dictionary of items but got type "${pyType(p.given)}".`;
    case "not_an_object": return `Invalid data. Expected a dictionary, but got ${pyType(p.given)}.`;
    case "max_length": return `Ensure this field has no more than ${p.limit} characters.`;
    case "not_a_file": return "The submitted data was not a file. Check the encoding type on the form.";
    case "no_filename": return "No filename could be determined.";
    case "empty_file": return "The submitted file is empty.";
    case "filename_too_long": return `Ensure this filename has at most ${p.limit} characters (it has ${p.length}).`;
    case "file_too_large": return `The submitted file is larger than the limit of ${p.limit} bytes.`;
    case "invalid_image": return "Upload a valid image. The file you uploaded was either not an image or a corrupted image.";
    case "min_length": return `Ensure this field has at least ${p.limit} characters.`;
    case "max_value": return `Ensure this value is less than or equal to ${p.limit}.`;
    case "min_value": return `Ensure this value is greater than or equal to ${p.limit}.`;
    case "string_too_large": return "String value too large.";
    case "max_digits": return `Ensure that there are no more than ${p.limit} digits in total.`;
    case "max_decimal_places": return `Ensure that there are no more than ${p.limit} decimal places.`;
    case "max_whole_digits": return `Ensure that there are no more than ${p.limit} digits before the decimal point.`;
    case "choice_not_scalar": return 'Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.';
    // DRF's own ChoiceField (a plain choice) quotes the value; Nautobot's does not.
    case "invalid_choice": return p.plain ? `"${String(p.value)}" is not a valid choice.` : `${String(p.value)} is not a valid choice.`;
    case "invalid_network": return `Enter a valid IPv4 or IPv6 network in CIDR notation: ${String(p.value)}`;
    case "invalid_ip_address": return `Invalid IP address format: ${String(p.value)}`;
    case "null_characters": return "Null characters are not allowed.";
    case "unknown_field": return "Unknown field.";
    case "invalid_items": return "Invalid items.";
    case "parent_is_self_or_child": return "Cannot assign self or child as parent.";
    case "content_type_format": return "Invalid value. Specify a content type as '<app_label>.<model_name>'.";
    case "invalid_content_type": return `Invalid content type: ${p.value}`;
    case "content_type_in_use": return `Unable to remove ${p.label}. Dependent objects were found.`;
    case "related_not_found_by_id": return `Related object not found using the provided ID: ${String(p.value)}`;
    case "related_not_found_by_attributes": return `Related object not found using the provided attributes: ${pyRepr(p.value)}`;
    case "related_multiple_match": return `Multiple objects match the provided attributes: ${pyRepr(p.value)}`;
    case "related_unrecognized":
      return `Related objects must be referenced by ID or by dictionary of attributes. Received an unrecognized value: ${typeof p.value === "string" ? p.value : JSON.stringify(p.value)}`;
    case "related_objects_not_found": return "Related objects not found.";
    case "pk_wrong_type": return `Incorrect type. Expected pk value, received ${pyType(p.given)}.`;
    case "invalid_pk": return `Invalid pk "${p.value === null ? "None" : String(p.value)}" - object does not exist.`;
    case "pk_not_uuid": return `“${typeof p.value === "string" ? p.value : JSON.stringify(p.value)}” is not a valid UUID.`;
    case "slug_not_string": return "Invalid value.";
    case "slug_not_found": return `Object with slug=${p.slug} does not exist.`;
    case "default_status_missing":
      return `${p.model} default status '${p.slug}' does not exist, create '${p.slug}' status for ${p.model} or use the latest api_version`;
    case "unique": return unique(p);
    case "unique_set": return `The fields ${p.fields.join(", ")} must make a unique set.`;
    case "invalid_db_value": return `Invalid value: ${p.reason}`;
    case "custom_fields_not_a_dict": return "Expected a dictionary of custom field values.";
    case "custom_field_invalid": return `Invalid value for custom field '${p.name}': ${wordCustomFieldReason(p.reason)}`;
    case "custom_field_missing": return `Missing required custom field '${p.name}'.`;
    case "custom_field_default_invalid": return `Invalid default value "${pyStr(p.value)}": ${wordCustomFieldReason(p.reason)}`;
    case "not_a_relationship": return `"${p.slug}" is not a relationship on ${p.model}`;
    case "invalid_relationship_side": return `"${p.side}" is not a valid side for "${p.relationship}" on ${p.model}`;
    case "relationship_objects_missing": return `"objects" must be specified under ["${p.slug}"]["${p.side}"] when present`;
    case "relationship_objects_not_a_list": return '"objects" must be a list, not a single value';
    case "relationship_too_many": return `For "${p.relationship}", "${p.side}" objects must include at most a single object`;
    case "relationship_required_none_exist":
      return `${capfirst(plural(p.model))} require ${p.many ? "at least one" : "a"} ${p.other}, but no ${plural(p.other)} exist yet. ` +
        `Create a ${p.other} by posting to ${p.url}`;
    case "relationship_required": return `You need to specify ["relationships"]["${p.slug}"]["${p.side}"]["objects"].`;
    case "association_type_mismatch": return `${p.side}_type has a different value than defined in ${p.relationship}`;
    case "association_with_itself": return "An object cannot form a RelationshipAssociation with itself";
    case "association_exists": return `A ${p.relationship} association already exists between ${p.source} and ${p.destination}`;
    case "association_cardinality": return `Unable to create more than one ${p.relationship} association ${DIRECTION[p.end]} ${p.object} (${p.end})`;
    case "association_filter": return `${p.object} violates ${p.relationship} ${p.side}_filter restriction`;
    case "invalid_constraint": return `Invalid filter for ${p.model}: ${p.reason}`;
    case "unknown_filter": return "Unknown filter field";
    case "filter_single_value": return "Only one value may be given for this filter.";
    case "filter_invalid_uuid": return "Enter a valid UUID.";
    case "filter_whole_number": return "Enter a whole number.";
    case "filter_number": return "Enter a number.";
    case "filter_date": return "Enter a valid date.";
    case "filter_datetime": return "Enter a valid date/time.";
    case "filter_invalid_choice": return `Select a valid choice. ${p.value} is not one of the available choices.`;
    case "filter_invalid_value": return `“${p.value}” is not a valid value.`;
    case "filter_invalid_regex": return `"${p.value}" is not a valid regular expression.`;
    case "filter_mask_length": return "Enter a whole number between 0 and 128.";
    case "filter_ip_address": return "Enter a valid IPv4 or IPv6 address.";
    case "filter_network": return "Enter a valid IPv4 or IPv6 network in CIDR notation.";
    case "filter_parameter_invalid": return `'${p.param}': ${p.problems.map(wordProblem).join(", ")}`;
    case "invalid_token": return "Invalid token";
    case "token_expired": return "Token expired";
    case "user_inactive": return "User inactive";
    case "not_found": return "Not found.";
    case "forbidden": return "You do not have permission to perform this action.";
    case "invalid_cursor": return "Invalid cursor";
    case "export_template_error": return `There was an error rendering the selected export template (${p.name}): ${p.error}`;
    case "protected":
      return `Unable to delete object. ${p.dependents.length} dependent objects were found: ${p.dependents.map((d) => `${d.display} (${d.id})`).join(", ")}`;
    case "integrity": return "Unable to complete the operation: a related object is referenced by, or missing for, another object.";
    case "precondition_failed": return `This object does not conform to pre-${p.version} behavior. Please correct data or use API version ${p.version}`;
  }
}

/** A leaf in DRF's words: a problem worded, text (a hook's, or this profile's) as it is. */
export const wordLeaf = (leaf: Leaf): string => (typeof leaf === "string" ? leaf : wordProblem(leaf));

/** The body DRF sends for an error tree (or a list of them, for a bulk body). */
export function wordErrors(errors: ErrorTree | Record<string, ErrorTree> | Array<Record<string, ErrorTree>>): unknown {
  return wordTree(errors, wordLeaf);
}
