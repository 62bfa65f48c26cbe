"""Summarize a V8 .cpuprofile (from `node --cpu-prof`): self and total time per function.

    python3 benchmarks/cpuprofile_summary.py PROFILE.cpuprofile [--top 20]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    prof = json.loads(args.profile.read_text())
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    # sample time: timeDeltas[i] is the gap before sample i
    self_us: dict[int, float] = defaultdict(float)
    for node_id, delta in zip(prof["samples"], prof["timeDeltas"], strict=True):
        self_us[node_id] += delta

    def key(n):
        f = n["callFrame"]
        name = f["functionName"] or "(anonymous)"
        url = f["url"].rsplit("/", 1)[-1]
        return f"{name} {url}:{f['lineNumber'] + 1}" if url else name

    self_by: dict[str, float] = defaultdict(float)
    total_by: dict[str, float] = defaultdict(float)
    for node_id, us in self_us.items():
        self_by[key(nodes[node_id])] += us
        seen = set()
        n = node_id
        while n is not None:  # count each function once per stack (recursion)
            k = key(nodes[n])
            if k not in seen:
                total_by[k] += us
                seen.add(k)
            n = parent.get(n)
    all_us = sum(self_us.values())
    print(f"{all_us / 1000:.0f} ms sampled")
    print(f"{'self %':>7} {'total %':>8}  function")
    for k, us in sorted(self_by.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{100 * us / all_us:6.1f}% {100 * total_by[k] / all_us:7.1f}%  {k}")
    print("\nby total (inclusive) time:")
    for k, us in sorted(total_by.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{100 * self_by[k] / all_us:6.1f}% {100 * us / all_us:7.1f}%  {k}")


if __name__ == "__main__":
    main()
