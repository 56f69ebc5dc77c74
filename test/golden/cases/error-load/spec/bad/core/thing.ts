// No default export: the load pass rejects the file before validation.
export const notAModel = 1;
