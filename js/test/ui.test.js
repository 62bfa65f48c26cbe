// @ts-check
// The UI's two safety checks (the rest of the UI is tested in a real browser: tests/test_browser.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { isSafeSnippet, safeUrl } from "../src/ui/panel.js";

const root = new URL("https://docs.example.org/project/");

test("result URLs resolve against the site root", () => {
  assert.equal(safeUrl("guide/install/#pip", root), "https://docs.example.org/project/guide/install/#pip");
  assert.equal(safeUrl("", root), "https://docs.example.org/project/");
  assert.equal(safeUrl("page.html", new URL("file:///home/me/site/")), "file:///home/me/site/page.html");
  assert.equal(safeUrl("https://docs.example.org/other/", root), "https://docs.example.org/other/");
});

test("URLs that run script or leave the site are refused", () => {
  for (const url of [
    "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
    "java\nscript:alert(1)", "\u0000javascript:alert(1)", "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)", "//evil.example/", "\\\\evil.example/", "https://evil.example/",
    "http://docs.example.org/project/", "ftp://docs.example.org/", "blob:https://docs.example.org/x",
  ]) {
    assert.equal(safeUrl(url, root), null, JSON.stringify(url));
  }
  assert.equal(safeUrl(undefined, root), null);
  assert.equal(safeUrl(42, root), null);
});

test("snippets may only carry <mark>", () => {
  assert.ok(isSafeSnippet("plain &amp; <mark>marked</mark> text &lt;b&gt;"));
  assert.ok(isSafeSnippet(""));
  for (const html of [
    "<img src=x onerror=alert(1)>", "<mark onclick=alert(1)>x</mark>", "<MARK>x</MARK>", "<mark >x</mark>",
    "a > b", "<script>alert(1)</script>", "<mark>x</mark><b>y</b>", "<!-- x -->",
  ]) {
    assert.equal(isSafeSnippet(html), false, html);
  }
  assert.equal(isSafeSnippet(undefined), false);
});
