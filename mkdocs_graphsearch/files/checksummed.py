"""The frame of the build's small cache files: magic line, sha256 hex of the payload, newline,
payload. A cut or changed file fails the checksum, so its reader can warn and start over."""

from __future__ import annotations

import hashlib


def framed(magic: bytes, payload: bytes) -> bytes:
    """The bytes of a cache file holding `payload`."""
    return magic + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def payload_of(data: bytes, magic: bytes, what: str) -> bytes:
    """The payload of a `framed` file; ValueError naming `what` if it is not one or is damaged."""
    head = len(magic) + 65
    if data[: len(magic)] != magic or len(data) < head or data[head - 1 : head] != b"\n":
        raise ValueError(f"not a {what} file")
    payload = data[head:]
    if hashlib.sha256(payload).hexdigest().encode() != data[len(magic) : head - 1]:
        raise ValueError("checksum mismatch (truncated or changed)")
    return payload
