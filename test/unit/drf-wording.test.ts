// The DRF profile's words for the engine's problems: a few codes against the exact texts
// Nautobot's stack answers with, and an error tree worded leaf by leaf, hooks' text kept.
import { expect } from "chai";
import { wordErrors, wordProblem } from "../../runtime/profiles/drf/wording.js";
import type { Problem } from "../../runtime/problems.js";

describe("unit: DRF wording", () => {
  it("words each problem in DRF's or Django's text", () => {
    const cases: Array<[Problem, string]> = [
      [{ code: "required" }, "This field is required."],
      [{ code: "not_a_list", given: "x" }, 'Expected a list of items but got type "str".'],
      [{ code: "not_a_dict", given: true }, 'Expected a dictionary of items but got type "bool".'],
      [{ code: "max_length", limit: 100 }, "Ensure this field has no more than 100 characters."],
      [{ code: "invalid_choice", value: "big", plain: true }, '"big" is not a valid choice.'],
      [{ code: "invalid_choice", value: "big", plain: false }, "big is not a valid choice."],
      [{ code: "related_not_found_by_id", value: 7 }, "Related object not found using the provided ID: 7"],
      [{ code: "related_not_found_by_attributes", value: { name: "x", rack: null } }, "Related object not found using the provided attributes: {'name': 'x', 'rack': None}"],
      // Flattened as dict_to_filter_params flattens the lookups it prints (nautobot/utilities/utils.py).
      [{ code: "related_not_found_by_attributes", value: { name: "x", site: { slug: "s", region: { name: "r" } }, tags: [{ a: 1 }] } },
        "Related object not found using the provided attributes: {'name': 'x', 'site__slug': 's', 'site__region__name': 'r', 'tags': [{'a': 1}]}"],
      [{ code: "related_multiple_match", value: { site: { slug: "s" } } }, "Multiple objects match the provided attributes: {'site__slug': 's'}"],
      [{ code: "invalid_pk", value: null }, 'Invalid pk "None" - object does not exist.'],
      [{ code: "invalid_content_type", value: "dcim.nothing" }, "Invalid content type: dcim.nothing"],
      [{ code: "filter_invalid_uuid" }, "Enter a valid UUID."],
      [{ code: "filter_invalid_choice", value: "huge" }, "Select a valid choice. huge is not one of the available choices."],
      [{ code: "max_value", limit: 2n ** 63n - 1n }, "Ensure this value is less than or equal to 9223372036854775807."],
      [{ code: "unique", by: "django", model: "device type", fields: [{ name: "manufacturer" }, { name: "model" }] }, "Device type with this Manufacturer and Model already exists."],
      [{ code: "unique", by: "serializer", model: "site", fields: [{ name: "name" }] }, "site with this name already exists."],
      [{ code: "unique_set", fields: ["rack", "position", "face"] }, "The fields rack, position, face must make a unique set."],
      [{ code: "custom_field_invalid", name: "size", reason: { code: "invalid_choice", value: 3, choices: ["a", "b"] } }, "Invalid value for custom field 'size': Invalid choice (3). Available choices are: a, b"],
      [{ code: "association_cardinality", relationship: "rack power", object: "R1", end: "peer" }, "Unable to create more than one rack power association involving R1 (peer)"],
      [{ code: "relationship_required_none_exist", model: "device", other: "circuit", many: true, url: "/api/circuits/circuits/" },
        "Devices require at least one circuit, but no circuits exist yet. Create a circuit by posting to /api/circuits/circuits/"],
      [{ code: "protected", dependents: [{ display: "R1", id: "1" }, { display: "R2", id: "2" }] }, "Unable to delete object. 2 dependent objects were found: R1 (1), R2 (2)"],
      [{ code: "precondition_failed", version: "1.3" }, "This object does not conform to pre-1.3 behavior. Please correct data or use API version 1.3"],
    ];
    for (const [problem, text] of cases) expect(wordProblem(problem), problem.code).to.equal(text);
  });

  it("words an error tree leaf by leaf, keeping its shape and a hook's own text", () => {
    const errors = {
      name: [{ code: "blank" } as Problem, "A hook's own words."],
      ports: { 1: [{ code: "invalid_integer" } as Problem] },
      tags: [{}, [{ code: "related_not_found_by_id", value: "x" } as Problem]],
    };
    expect(wordErrors(errors)).to.deep.equal({
      name: ["This field may not be blank.", "A hook's own words."],
      ports: { 1: ["A valid integer is required."] },
      tags: [{}, ["Related object not found using the provided ID: x"]],
    });
    expect(wordErrors([{}, { id: [{ code: "required" }] }])).to.deep.equal([{}, { id: ["This field is required."] }]);
  });
});
