"""Regenerate tests/vectors/tokenizer.json from the Python tokenizer (review the diff by hand:
the vectors are the spec, so a change here is a change of the search behaviour of every site)."""

from __future__ import annotations

from pathlib import Path

import orjson

from mkdocs_graphsearch.text.tokenize import tokenize

CASES = [
    "",
    "   \t\n ",
    "Hello, World!",
    "use_directory_urls",
    "on_page_markdown",
    "HTTPException",
    "getUserById",
    "XMLHttpRequest parseHTML2JSON",
    "kebab-case-name --config-file -f",
    "mkdocs.yml os.path.join v1.6.1",
    "__init__ __main__.py",
    "The quick brown fox and the lazy dog",
    "How do I put my docs online?",
    "for if not is has can do",
    "!ENV tag",
    "mkdocs serve --dev-addr=127.0.0.1:8000",
    "C++ C# F# .NET node.js",
    "utf8 h1 ipv6 x86_64 3.14159 1e-6",
    "Ünïcödé naïve café résumé",
    "straße STRASSE ﬁle ＡＢＣ１２３",
    "ΑΣ σοφίας Σίσυφος ΟΔΥΣΣΕΥΣ",
    "İstanbul DİYARBAKIR",
    "Привет мир ЁжикВТумане",
    "مرحبا بالعالم",
    "שלום עולם",
    "नमस्ते दुनिया",
    "こんにちは世界",
    "日本語のドキュメント検索",
    "中文 文档 搜索引擎",
    "한국어 문서 검색",
    "漢",
    "Python教程 v2版本",
    "emoji 🚀 rocket 👍🏽 ok",
    "tabs\tand\nnew\r\nlines",
    "a1b2c3 A1B2 1st 2nd 3rd",
    "snake_case__double--dash..dots",
    "trailing_ _leading -x- .hidden",
    "'quoted' \"double\" (parens) [brackets] {braces} <angle>",
    "+plus -minus *star ~tilde ^caret",
    "e.g. i.e. etc.",
    "don't can't won't",
    "camelCaseWithNumbers123AndMore",
    "ABCDef ABC aBC Abc",
    "ǅungla ǈudevit",
    "x" * 70,
    "supercalifragilisticexpialidocious_" + "y" * 40,
    "ｶﾀｶﾅ half-width",
    "①②③ ⅷ ½",
    "e\u0301cole \u0301leading-mark",
    "zero\u200bwidth joiner\u200d",
    "RESTfulAPI IOError JSONDecodeError",
    "page#anchor path/to/file.md?q=1",
    "$HOME ${VAR} %PATH%",
    "k8s kubectl apply -f deployment.yaml",
    "TIDEWATER_BROKER_URL=redis://localhost:6379/0",
    # The Unicode table (js/src/engine/text/unicode-table.js): iteration marks are CJK, the katakana middle
    # dot separates, planes 2-3 are CJK; categories, lowercase and NFKC as of the table's
    # version whatever the engine knows (U+0295 is Ll there, U+A7CB and U+1E030 unassigned).
    "様々な設定 ジョブ・キュー 〆切",
    "\U00031350\U00031351 \U0002ebf0",
    "A\u0295Bc \ua7cbx x\U0001e030y",
    "e\U0001e030\u0301 \ufb01\U0001e030\ufb01",
    # Stop words written as names (rule 6): identifier punctuation, backticks, compounds' parts;
    # plain ones and sentence ends are still dropped.
    "or_ where .where() and_ col",
    "use `where` or `or_` here, `as",
    "from_dict out-of-the-box _from --as where(x) x(where) `from_dict`",
    "The end. Where? (where applicable) and/or",
    # Katakana runs whole, other CJK pieces as bigrams (rule 5).
    "ワーカーを起動する スケジュール キュー デッドレターキュー",
    "ジョブの結果はいつまで保存される ｷｭｰ",
]
#: Texts tokenized as code (rule 6: no stop word is dropped).
CODE_CASES = [
    "from harbor import Berth as B",
    "SELECT * FROM jobs WHERE id = 1 AND state IS NOT NULL OR retries > 3",
]


def main() -> None:
    vectors: list[dict[str, object]] = [{"input": text, "tokens": tokenize(text)} for text in CASES]
    vectors += [{"input": text, "code": True, "tokens": tokenize(text, code=True)} for text in CODE_CASES]
    path = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "tokenizer.json"
    path.write_bytes(orjson.dumps(vectors, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"wrote {len(vectors)} cases to {path}")


if __name__ == "__main__":
    main()
