"""Files: atomic writes, the cache store (one framing, lock and pruning for every cache file),
and where the package's own data (the JS runtime) lives. Beneath every other part of the
package; imports nothing from it."""
