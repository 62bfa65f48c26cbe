"""Files: atomic writes, checksummed framing, and where the package's own data (the JS runtime)
lives. Beneath every other part of the package; imports nothing from it."""
