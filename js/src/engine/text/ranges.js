// @ts-check
/**
 * Code point range tables as the generators write them (scripts/make_unicode_table.py,
 * tests/test_wordpiece.py): space-separated `gap[+length]` in hex, where gap is the distance
 * from the end of the previous range + 1 (from -1 for the first) and length is end - start.
 */

/**
 * @param {string} encoded
 * @returns {Uint32Array} flattened inclusive [start, end] pairs, ascending
 */
export function decodeRanges(encoded) {
  const parts = encoded.split(" ").filter(Boolean);
  const out = new Uint32Array(parts.length * 2);
  let prev = -1;
  parts.forEach((part, i) => {
    const [gap, len = "0"] = part.split("+");
    const start = prev + 1 + parseInt(gap, 16);
    const end = start + parseInt(len, 16);
    out[2 * i] = start;
    out[2 * i + 1] = end;
    prev = end;
  });
  return out;
}

/**
 * @param {Uint32Array} ranges flattened inclusive [start, end] pairs, ascending
 * @param {number} cp
 */
export function inRanges(ranges, cp) {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[2 * mid]) hi = mid - 1;
    else if (cp > ranges[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}
