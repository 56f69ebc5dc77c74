import type { SaveEvent } from "../../../../../../../runtime/hooks.js";

export function beforeSave(_event: SaveEvent): void {}

export function beforeSaveSet(_events: SaveEvent[]): void {}

export function beforSave(_event: SaveEvent): void {}
