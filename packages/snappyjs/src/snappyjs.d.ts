// snappyjs ships no types; only what the adapter uses. Output type follows input type.
// A CommonJS module: ESM importers get its exports object as the default export.
declare module "snappyjs" {
  const snappyjs: {
    compress(uncompressed: Uint8Array): Uint8Array;
    uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
  };
  export default snappyjs;
}
