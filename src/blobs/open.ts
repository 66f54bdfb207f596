import { join } from "node:path";
import type { BlobStoreConfig } from "../config/config.js";
import type { BlobStore } from "./blob-store.js";
import { openLocalBlobStore } from "./local.js";

/**
 * Opens the blob store the configuration names; uploads are received under `<dataDir>/tmp`
 * either way. @throws BlobStoreError when an S3 bucket does not answer as configured
 */
export async function openBlobStore(config: BlobStoreConfig, dataDir: string): Promise<BlobStore> {
  switch (config.kind) {
    case "local":
      return openLocalBlobStore(dataDir);
    case "s3": {
      // Loaded only when used: the AWS SDK adds about half a second to every command's start.
      const { openS3BlobStore } = await import("./s3.js");
      return openS3BlobStore(config, join(dataDir, "tmp"));
    }
  }
}
