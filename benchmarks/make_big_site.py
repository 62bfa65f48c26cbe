"""Write a big docs folder for the scale benchmark: a corpus repeated with renamed pages and folders.

    .venv/bin/python benchmarks/make_big_site.py /tmp/big --chunks 100000            # ../shared/corpora/k8s-docs x8
    .venv/bin/python benchmarks/make_big_site.py /tmp/big --chunks 100000 --check-cache .cache/eval
    .venv/bin/python benchmarks/make_big_site.py /tmp/big --perturb-text 0.05      # new passages: embeds all

Deterministic: the same arguments write the same files (every choice comes from `--seed`). The
output is not committed (100,000 chunks of k8s-docs is ~100 MB of markdown).

Copies: the whole number of copies nearest to `--chunks` chunks (chunks counted as the plugin does: the
source's corpus). Copy i lives in `cNNN-WORD/`; in it, every folder is renamed `NAME-WORD` and every
page `STEM-WORD.md` (a different word per copy, from a seeded list), except section index pages
(`_index.md`, `index.md`, `README.md`) and pages with no title of their own (no front-matter `title:`
and no `# ` heading: their title comes from the file name and is part of the embedded passage).

Why only names and links by default: the embedding cache is keyed by sha256(model fingerprint +
passage text) and the passage is page title + heading path + the chunk's text
(index/passages.py): file and folder names, link targets and page order are not in it, so every
copy's passages hit the source's cached embeddings (a 100,000-chunk cold embedding is hours on 2
cores). What differs between copies is what the keyword index and the graph see beyond the
passage: the `file` field (path names, index/bm25.py path_names: renamed folders and pages), the
`anchor` field and the link graph (relative links are rewritten to the renamed pages, and with
probability `--relink` a link points at the same page in another copy, so incoming anchor texts
and graph degrees differ per copy), and page order (names sort differently). Body words, titles
and headings stay the same, so BM25's statistics of those fields are the source's times the copy
count. `--perturb-text RATE` also changes body words (each word of prose outside code fences and
front matter is, with probability RATE, replaced by another word of the same page): BM25 statistics
then differ, but every changed chunk is a new passage to embed.

`--check-cache DIR` counts how many of the site's passages have an embedding in that cache (the
plugin's `cache_dir`), without running the model, with the passages `graphsearch index` makes
(parse_folder). A cache filled by `graphsearch index` (e.g. relevance_bench's) need not hold the
passages of an `mkdocs build`: seeded with .cache/eval-r4 (99.7% hits by this count), the plugin's
k8s-docs build still embedded over 2,000 passages. Seed the big site's build with the cache of a
plugin build of the source instead (scale_bench's `benchmarks/.cache/scale-bench/k8s-docs/cache`,
copied elsewhere).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SOURCE = REPO.parent / "shared" / "corpora" / "k8s-docs"
INDEX_PAGES = {"_index.md", "index.md", "README.md"}
WORDS = ("amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "harbor", "indigo", "juniper", "kestrel",
         "lagoon", "meadow", "nectar", "orchid", "prairie", "quartz", "ridge", "sierra", "tundra", "umber",
         "valley", "willow", "xenon", "yarrow", "zephyr")
LINK = re.compile(r"(\]\()([^)\s#]+\.md)(#[^)\s]*)?(\))")


def chunk_count(folder: Path) -> int:
    sys.path.insert(0, str(REPO))
    from mkdocs_graphsearch.index.corpus import Corpus
    from mkdocs_graphsearch.parse.folder import parse_folder

    return len(Corpus.from_pages(parse_folder(folder)).chunks)


def has_own_title(text: str) -> bool:
    front = re.match(r"---\n(.*?)\n---\n", text, re.S)
    return bool(front and re.search(r"^title:", front.group(1), re.M)) or bool(re.search(r"^# ", text, re.M))


def renamed(rel: PurePosixPath, word: str, keep_name: bool) -> PurePosixPath:
    folders = [f"{part}-{word}" for part in rel.parts[:-1]]
    name = rel.name if keep_name or rel.name in INDEX_PAGES else f"{rel.stem}-{word}{rel.suffix}"
    return PurePosixPath(*folders, name)


def perturb(text: str, rate: float, rng: random.Random) -> str:
    """Replace prose words (not in front matter or code fences) with another word of the same page."""
    lines = text.split("\n")
    words = [w for line in lines for w in re.findall(r"[A-Za-z]{4,}", line)] or ["word"]
    out, fenced, front = [], False, text.startswith("---\n")
    for n, line in enumerate(lines):
        if front:
            front = not (n > 0 and line == "---")
        elif line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and not line.startswith("#"):
            line = re.sub(r"\b[a-z]{4,}\b", lambda m: rng.choice(words) if rng.random() < rate else m.group(0), line)
        out.append(line)
    return "\n".join(out)


def write_site(source: Path, out: Path, copies: int, seed: int, relink: float, rate: float) -> int:
    rng = random.Random(seed)
    pages = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file())
    texts = {rel: (source / rel).read_text(encoding="utf-8") if rel.suffix == ".md" else None for rel in pages}
    words = [rng.sample(WORDS, 2) for _ in range(copies)]
    roots = [PurePosixPath(f"c{i:03d}-{a}") for i, (a, _) in enumerate(words)]
    names = [{PurePosixPath(rel.as_posix()): roots[i] / renamed(PurePosixPath(rel.as_posix()), b,
                                                           texts[rel] is not None and not has_own_title(texts[rel]))
              for rel in pages} for i, (_, b) in enumerate(words)]
    written = 0
    for i in range(copies):
        for rel in pages:
            key = PurePosixPath(rel.as_posix())
            target = out / names[i][key]
            target.parent.mkdir(parents=True, exist_ok=True)
            text = texts[rel]
            if text is None:
                shutil.copyfile(source / rel, target)
                continue

            def relinked(m: re.Match, i: int = i, key: PurePosixPath = key) -> str:
                linked = PurePosixPath(os.path.normpath(str(key.parent / m.group(2))))
                if linked not in names[i]:
                    return m.group(0)  # absolute, outside the docs or broken in the source: as it was
                copy = rng.randrange(copies) if rng.random() < relink else i
                new = os.path.relpath(str(names[copy][linked]), str(names[i][key].parent))
                return f"{m.group(1)}{PurePosixPath(new).as_posix()}{m.group(3) or ''}{m.group(4)}"

            text = LINK.sub(relinked, text)
            if rate:
                text = perturb(text, rate, rng)
            target.write_text(text, encoding="utf-8")
            written += 1
    return written


def check_cache(out: Path, cache: Path) -> tuple[int, int, int]:
    """(chunks, distinct passages, distinct passages with a cached embedding)."""
    sys.path.insert(0, str(REPO))
    from mkdocs_graphsearch.index.corpus import Corpus
    from mkdocs_graphsearch.index.embed import ModelSpec
    from mkdocs_graphsearch.index.embed_cache import EmbeddingCache, cache_key
    from mkdocs_graphsearch.index.passages import passage_text
    from mkdocs_graphsearch.parse.folder import parse_folder

    chunks = Corpus.from_pages(parse_folder(out)).chunks
    fingerprint = ModelSpec().fingerprint
    keys = {cache_key(fingerprint, passage_text(chunk)) for chunk in chunks}
    return len(chunks), len(keys), len(EmbeddingCache(cache).get_many(keys))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write (must not exist, or be empty)")
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--chunks", type=int, default=100_000, help="about this many chunks (whole copies)")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--relink", type=float, default=0.25, help="share of links sent to another copy")
    parser.add_argument("--perturb-text", type=float, default=0.0, metavar="RATE",
                        help="replace prose words with this probability (new passages: no cache hits)")
    parser.add_argument("--check-cache", type=Path, metavar="DIR", help="count passages with an embedding in DIR")
    args = parser.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        sys.exit(f"make_big_site: {args.out} is not empty")
    per_copy = chunk_count(args.source)
    copies = max(1, round(args.chunks / per_copy))
    pages = write_site(args.source, args.out, copies, args.seed, args.relink, args.perturb_text)
    print(f"{args.out}: {copies} copies of {args.source.name} ({per_copy} chunks each), {pages} pages")
    if args.check_cache:
        chunks, distinct, hits = check_cache(args.out, args.check_cache)
        print(f"{chunks} chunks, {distinct} distinct passages, {hits} with an embedding in {args.check_cache} "
              f"({hits / distinct:.1%})")


if __name__ == "__main__":
    main()
