"""Regenerate tests/vectors/stem.json: word -> Porter2 stem, from the reference `snowballstemmer`.

The words: every prose word (text/stem.py) in the markdown of the shared corpora and the example
site, the words the Snowball algorithm treats specially (exceptions, R1 prefixes, each suffix
rule), and seeded random stems + suffixes that reach the rules' corners. Both test suites
(tests/test_stem.py and js/test/stem.test.js) check every vector against their stemmer.

    .venv/bin/python scripts/make_stem_vectors.py [CORPORA_DIR]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import orjson

from mkdocs_graphsearch.text.stem import prose_words, stem

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "vectors" / "stem.json"
CORPORA = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "corpora"

TRICKY = """a ab abc y yy ay aya yaya s ss us is was ies ied eed ing ed ly ling bling sing zzz oed aed
eeing dying lying tying vying cried ties dies gas gaps this kiwis caresses ponies cats feed
agreed bleed plastered bled motoring conflated troubled sized hopping hoped hoping tanned
falling hissing fizzed fizzing failing filing happy sky skies skis idly gently ugly early only
singly howe atlas cosmos bias andes news inning innings outing outings canning herring herrings
earring earrings evening evenings proceed proceeds proceeding exceed exceeded succeed succeeding
generously generate general generosity communism community commune arsenal emergency emerging
interval internal later lateral organ organization past pasting paste pasted universal university
relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli
vileli analogousli vietnamization predication operator feudalism decisiveness hopefulness
callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti
electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible
irritant replacement adjustment dependent adoption homologous effective bowdlerize probate rate
cease controll roll generous dryly logically geology geologist archaeology biology fullness
carelessly fruitfully anthropologist quickly really yay sayings eyeing youth boys obeyed
saying enjoy enjoying annoyed employment ably fluently luxuriated conspiratorial kind kindly
admonition admonitions deploying deployment deployed themes theming warnings strict builds
""".split()

ROOTS = """act adapt bowdl cann dy eat fil gener hop inn lay lie luxur organ past play proc quot run sky succ thin
univers y za""".split()
SUFFIXES = """s es ies ied ss us ' 's 's' ed eed ing edly eedly ingly ly li bli abli alli fulli lessli ousli entli
aliti biliti iviti tional ational alism ation ization izer ator iveness fulness ousness ogist ogi
icate ative alize iciti ical ful ness ic ance ence able ible ate ive ize iti al ism ion sion tion
er ous ant ent ment ement e l ll y""".split()


def words() -> set[str]:
    found = {word for word in TRICKY if word.isalpha()}
    for folder in (CORPORA, ROOT / "example-site" / "docs"):
        for path in sorted(folder.rglob("*.md")):
            found.update(prose_words(path.read_text(encoding="utf-8", errors="replace")))
    rng = random.Random(9)
    for _ in range(3000):
        word = rng.choice(ROOTS) + "".join(rng.choice(SUFFIXES) for _ in range(rng.randint(1, 3)))
        if word.isalpha():
            found.add(word)
    return found


def main() -> None:
    vectors = {word: stem(word) for word in sorted(words())}
    OUT.write_bytes(orjson.dumps(vectors, option=orjson.OPT_SORT_KEYS) + b"\n")
    print(f"{len(vectors)} words -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
