/** A build's stamp: the hash of its inputs' contents, and each input's [size, modification time] as hashed. */
export type Stamp = { hash: string; files: Record<string, [number, number] | undefined> };
export function checkStamp(root: string, inputs: readonly string[], stampPath: string): { current: boolean; stamp: Stamp; changedTimes: boolean };
export function writeStamp(stampPath: string, stamp: Stamp): void;
