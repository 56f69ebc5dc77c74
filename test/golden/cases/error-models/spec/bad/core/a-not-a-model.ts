export default { kind: "choices", name: "Nope", values: [] };
