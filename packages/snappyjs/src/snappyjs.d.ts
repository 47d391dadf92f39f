// snappyjs ships no types; only what the adapter uses. Output type follows input type.
declare module "snappyjs" {
  export function compress(uncompressed: Uint8Array): Uint8Array;
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
}
