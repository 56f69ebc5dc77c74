// A helper hook modules share: a spec naming it as a model's hooks is refused.
export const inStock = (count: number): boolean => count > 0;
