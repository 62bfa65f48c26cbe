#!/usr/bin/env bash
# graphsearch chunks on every page of every corpus; counts + wall time per corpus.
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
for corpus in mkdocs-docs uv-docs fastapi-docs k8s-docs; do
  root=$SHARED/corpora/$corpus
  start=$(date +%s.%N)
  find "$root" -name '*.md' -print0 | sort -z | xargs -0 -n 1 .venv/bin/graphsearch chunks --root "$root" --json 2>/dev/null > /tmp/chunks-$corpus.jsonl
  status=$?
  end=$(date +%s.%N)
  python3 - "$corpus" "$start" "$end" "$status" <<'PY'
import json, sys
corpus, start, end, status = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
pages = [json.loads(l) for l in open(f"/tmp/chunks-{corpus}.jsonl")]
kinds = {"page": 0, "section": 0, "code": 0}
for p in pages:
    for c in p["chunks"]:
        kinds[c["kind"]] += 1
print(f"{corpus}: {len(pages)} pages, {kinds['section']} sections, {kinds['code']} code chunks, {sum(len(p['broken_links']) for p in pages)} broken links; {end-start:.1f} s wall (one process per page); xargs exit {status}")
PY
done
