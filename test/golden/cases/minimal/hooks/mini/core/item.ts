import type { ReadValue, SaveEvent } from "../../../../../../../runtime/hooks.js";

export function beforeSave({ values }: SaveEvent): void {
  if (typeof values.serial === "string") values.serial = values.serial.trim();
}

export const readValues: Record<string, ReadValue> = {
  serial_length: ({ alias }) => `length(${alias}."serial")`,
};
