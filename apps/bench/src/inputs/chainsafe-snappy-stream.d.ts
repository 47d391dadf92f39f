// @chainsafe/snappy-stream 5.1.2 ships no types: the two factories its index.js exports.
declare module "@chainsafe/snappy-stream" {
  const snappyStream: {
    createCompressStream(): NodeJS.ReadWriteStream;
    createUncompressStream(opts?: { asBuffer?: boolean }): NodeJS.ReadWriteStream;
  };
  export default snappyStream;
}
