// s3rver ships no types; this is the part of its API the tests use (lib/s3rver.js).
declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: ReadonlyArray<{ name: string }>;
  }

  class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  // CommonJS: `module.exports = S3rver`.
  export = S3rver;
}
