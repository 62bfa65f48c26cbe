// @ts-check
// A helper of the tests, not a test: a manifest object as a writer of it would give its bytes,
// its checksum first (spec: bundle/format.py seal_manifest), so an edited manifest still loads.
import { crc32 } from "../src/engine/bundle/format.js";

/** @param {any} manifest without `checksum` @returns {Uint8Array} */
export function sealedManifest(manifest) {
  const { checksum, ...rest } = manifest;
  const body = JSON.stringify(rest);
  const zeroed = new TextEncoder().encode(`{"checksum":"00000000"${body === "{}" ? "" : ","}${body.slice(1)}`);
  const digits = crc32(zeroed).toString(16).padStart(8, "0");
  zeroed.set(new TextEncoder().encode(digits), '{"checksum":"'.length);
  return zeroed;
}
