"""BERT uncased WordPiece (the embedding model's tokenizer), a thin wrapper over `tokenizers`.

The tokenizer is `bert-base-uncased`'s, as `all-MiniLM-L6-v2` uses it: BertNormalizer (clean text,
spaces around CJK ideographs, NFD + strip nonspacing marks, lowercase), BertPreTokenizer
(whitespace, then every punctuation character on its own), WordPiece with the `##` continuation
prefix, `[UNK]` for a word longer than 100 characters or one that cannot be matched, and
`[CLS] ... [SEP]` around the sequence. Special-token strings inside a text (`[SEP]`, `[MASK]`)
are plain text, never the special tokens.

`js/src/engine/text/wordpiece.js` implements the same thing without dependencies; `tests/vectors/wordpiece.json`
(ids produced by `tokenizers`) pins both.

Truncation: `encode(text, max_tokens)` returns at most `max_tokens` ids *including* `[CLS]` and
`[SEP]`, i.e. the first `max_tokens - 2` word pieces, exactly as `tokenizers`' own truncation does.
Only as much of a long text is tokenized as those pieces need (`head_pieces`): a head cut at a
space or line break holds whole words, so its pieces are the first pieces of the whole text, and
a section of millions of words costs the memory of its first few thousand characters.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from tokenizers import Tokenizer

__all__ = [
    "DEFAULT_VOCAB",
    "MAX_INPUT_CHARS_PER_WORD",
    "WordPiece",
    "build_tokenizer",
    "default_wordpiece",
    "encode",
]

#: The shipped bert-base-uncased vocab.txt (see VOCAB_SOURCE.md beside it).
DEFAULT_VOCAB = Path(__file__).with_name("vocab.txt")
#: Words longer than this many characters (code points) become one `[UNK]`.
MAX_INPUT_CHARS_PER_WORD = 100

CLS, SEP, UNK = "[CLS]", "[SEP]", "[UNK]"
#: Longest input in word pieces, [CLS] and [SEP] included: all-MiniLM-L6-v2's max_seq_length
#: (the embedder's default, index/embed.py ModelSpec).
DEFAULT_MAX_TOKENS = 256
#: A text's head is first tried at this many characters per wanted piece (doubled while it
#: gives too few pieces): no more than prose needs, and far from what a huge section holds.
HEAD_CHARS_PER_PIECE = 16
#: Where a head may end: whitespace both the normaliser and the pre-tokenizer split at.
_WORD_END = re.compile(r"[ \t\n\r]")


def build_tokenizer(path: str | Path | None = None) -> Tokenizer:
    """A `tokenizers.Tokenizer` for BERT uncased WordPiece.

    `path` is a `vocab.txt` (one token per line, line number = id; default: the shipped one) or a
    `tokenizer.json`. A tokenizer.json is used as it is, less any padding and truncation it
    carries (callers truncate explicitly) and with special-token strings encoded as text.
    """
    from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece as WordPieceModel

    path = Path(path) if path is not None else DEFAULT_VOCAB
    if path.suffix == ".json":
        tok = Tokenizer.from_file(str(path))
        tok.no_padding()
        tok.no_truncation()
        tok.encode_special_tokens = True
        return tok
    model = WordPieceModel.from_file(
        str(path), unk_token=UNK, max_input_chars_per_word=MAX_INPUT_CHARS_PER_WORD
    )
    tok = Tokenizer(model)
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    cls_id, sep_id = tok.token_to_id(CLS), tok.token_to_id(SEP)
    if cls_id is None or sep_id is None or tok.token_to_id(UNK) is None:
        raise ValueError(f"{path}: vocabulary lacks [CLS], [SEP] or [UNK]")
    tok.post_processor = processors.TemplateProcessing(
        single=f"{CLS} $A {SEP}",
        pair=f"{CLS} $A {SEP} $B:1 {SEP}:1",
        special_tokens=[(CLS, cls_id), (SEP, sep_id)],
    )
    tok.decoder = decoders.WordPiece(prefix="##")
    return tok


class WordPiece:
    """BERT uncased WordPiece over a vocabulary file (default: the shipped vocab.txt)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else DEFAULT_VOCAB
        #: sha256 (hex) of the vocabulary file's bytes: part of the embedding model fingerprint.
        self.sha256 = hashlib.sha256(self.path.read_bytes()).hexdigest()
        self.tokenizer = build_tokenizer(self.path)
        self.cls_id = self._id(CLS)
        self.sep_id = self._id(SEP)
        self.unk_id = self._id(UNK)
        self.vocab_size = self.tokenizer.get_vocab_size(with_added_tokens=True)

    def _id(self, token: str) -> int:
        i = self.tokenizer.token_to_id(token)
        if i is None:
            raise ValueError(f"{self.path}: vocabulary lacks {token}")
        return i

    def pieces(self, text: str) -> list[int]:
        """Word-piece ids of `text`: no `[CLS]`/`[SEP]`, no truncation."""
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def pieces_batch(self, texts: Sequence[str]) -> list[list[int]]:
        """`pieces` for many texts at once (the Rust side may use several threads)."""
        return [e.ids for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]

    def head_pieces(self, texts: Sequence[str], count: int) -> list[list[int]]:
        """The first `count` word pieces of each text (all of a shorter one), tokenizing only a
        head of each long text (cut before whitespace: whole words) that gives them."""
        size = max(count, 1) * HEAD_CHARS_PER_PIECE
        heads = [_head(text, size) for text in texts]
        pieces = self.pieces_batch(heads)
        for i, text in enumerate(texts):
            while len(pieces[i]) < count and len(heads[i]) < len(text):
                heads[i] = _head(text, 2 * len(heads[i]))
                pieces[i] = self.pieces(heads[i])
            del pieces[i][count:]
        return pieces

    def words(self, text: str) -> list[str]:
        """`text`'s words as WordPiece cuts each on its own (normalized, pre-tokenized)."""
        tok = self.tokenizer
        normalized = tok.normalizer.normalize_str(text) if tok.normalizer is not None else text
        if tok.pre_tokenizer is None:
            return normalized.split()
        return [word for word, _ in tok.pre_tokenizer.pre_tokenize_str(normalized)]

    def wrap(self, pieces: Sequence[int], max_tokens: int | None = None) -> list[int]:
        """`[CLS] + pieces + [SEP]`, keeping the first `max_tokens - 2` pieces when given."""
        if max_tokens is not None:
            if max_tokens < 2:
                raise ValueError("max_tokens must be at least 2 ([CLS] and [SEP])")
            pieces = pieces[: max_tokens - 2]
        return [self.cls_id, *pieces, self.sep_id]

    def encode(self, text: str, max_tokens: int | None = DEFAULT_MAX_TOKENS) -> list[int]:
        """Model input ids: `[CLS]`, the first `max_tokens - 2` word pieces, `[SEP]`.

        `max_tokens=None` keeps every piece.
        """
        if max_tokens is None:
            return self.wrap(self.pieces(text))
        return self.wrap(self.head_pieces([text], max(0, max_tokens - 2))[0], max_tokens)

    def vocab_text(self) -> bytes:
        """The vocabulary as vocab.txt bytes (one token a line, line number = id): what the
        browser's WordPiece reads, whichever file (vocab.txt or tokenizer.json) it came from."""
        vocab = self.tokenizer.get_vocab(with_added_tokens=False)
        by_id: list[str | None] = [None] * len(vocab)  # placed by id: no sort of 30,000 pairs
        for token, i in vocab.items():
            if 0 <= i < len(by_id):
                by_id[i] = token
        if any(token is None for token in by_id):
            raise ValueError(f"{self.path}: token ids are not 0..n-1, not a WordPiece vocabulary")
        return "".join(f"{token}\n" for token in by_id).encode("utf-8")

    def tokens(self, ids: Sequence[int]) -> list[str]:
        """The vocabulary strings of `ids` (for debugging and explanations)."""
        return [self.tokenizer.id_to_token(i) or UNK for i in ids]


def _head(text: str, size: int) -> str:
    """`text` up to the first word end at or after `size` characters (all of it when shorter)."""
    end = _WORD_END.search(text, size) if len(text) > size else None
    return text[: end.start()] if end else text


@lru_cache(maxsize=4)
def default_wordpiece(path: str | None = None) -> WordPiece:
    """A shared `WordPiece` per vocabulary path (default: the shipped vocab.txt)."""
    return WordPiece(path)


def encode(text: str, max_tokens: int | None = DEFAULT_MAX_TOKENS) -> list[int]:
    """`[CLS] + pieces + [SEP]` ids of `text` with the shipped vocabulary, at most `max_tokens`."""
    return default_wordpiece().encode(text, max_tokens)
