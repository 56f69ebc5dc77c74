export function beforeSav(): void {}
