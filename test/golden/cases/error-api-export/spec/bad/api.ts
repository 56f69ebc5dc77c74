// The default export is not made by api(): the validator stops at the first message.
export default { kind: "model", name: "bad" };
