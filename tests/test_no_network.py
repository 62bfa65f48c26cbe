"""No network at build, from us or from a dependency (issue 26): a build with embeddings, under
Debian's strace, opens no socket to anything but this machine, and asks no DNS server anything.

onnxruntime's PyPI wheels carry a telemetry uploader that looks up its host from a thread of its
own some seconds after the model starts; the process therefore stays up after the build as long
as `mkdocs serve` would, so that the uploader would have had its time.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, topic_docs

STRACE = shutil.which("strace")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(STRACE is None or sys.platform != "linux", reason="needs Linux and strace (apt install strace)"),
]

#: Seconds the process lives on after the build (the uploader looked its host up ~9 s in).
SERVE_SECONDS = 20

BUILD_THEN_SERVE = """
import sys, time
from mkdocs.__main__ import cli
try:
    cli(["build", "-q", "-f", sys.argv[1]], standalone_mode=False)
finally:
    time.sleep(float(sys.argv[2]))
"""

#: An address in a connect/sendto/sendmsg line: its family, then the rest up to the brace.
ADDRESS = re.compile(r"\{sa_family=(AF_[A-Z0-9]+)([^}]*)\}")
LOOPBACK = re.compile(r'inet_addr\("127\.|inet_pton\(AF_INET6, "(::1|::ffff:127\.)')


def outside_addresses(trace: str) -> list[str]:
    """The lines of a trace that address anything but this machine, or a DNS server anywhere."""
    found = []
    for line in trace.splitlines():
        if not re.search(r"\b(connect|sendto|sendmsg|sendmmsg)\(", line):
            continue
        for family, rest in ADDRESS.findall(line):
            if family in ("AF_UNIX", "AF_NETLINK"):
                continue
            if family in ("AF_INET", "AF_INET6") and LOOPBACK.search(rest) and "htons(53)" not in rest:
                continue
            found.append(line)
    return found


def test_the_filter_tells_local_sockets_from_the_rest() -> None:
    trace = "\n".join([
        '7 connect(3, {sa_family=AF_UNIX, sun_path="/run/x"}, 110) = 0',
        '7 sendto(4, "..."., 20, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 20',
        '7 connect(5, {sa_family=AF_INET, sin_port=htons(8000), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
        '8 connect(8, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = 0',
        '8 connect(9, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}, 16) = 0',
        '8 connect(9, {sa_family=AF_INET6, sin6_port=htons(443), inet_pton(AF_INET6, "2603:1030::1", &sin6_addr)}, 28)',
    ])
    assert [line.split()[1][:10] for line in outside_addresses(trace)] == ["connect(8,", "connect(9,", "connect(9,"]


def test_a_build_with_embeddings_contacts_nobody(tmp_path: Path) -> None:
    docs = topic_docs(tmp_path / "docs", "quokka")
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"site_name: Offline\ndocs_dir: {docs}\nsite_dir: {tmp_path / 'site'}\n"
        "plugins:\n  - graphsearch:\n      cache_dir: ''\n",  # no cache: the model runs
        encoding="utf-8",
    )
    log = tmp_path / "strace.log"
    env = {key: value for key, value in os.environ.items() if not key.startswith("ORT_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [str(STRACE), "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", str(log),
               sys.executable, "-c", BUILD_THEN_SERVE, str(config), str(SERVE_SECONDS)]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "search" / "manifest.json").is_file()
    assert b'"vectors"' in (tmp_path / "site" / "search" / "manifest.json").read_bytes()  # the model ran
    assert outside_addresses(log.read_text(encoding="utf-8")) == []
