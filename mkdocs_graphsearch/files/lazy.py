"""Third-party modules loaded on first use, so a build whose index is cached never loads them
(in files/, beneath every layer: the index and the bundle code use it).

Why: importing numpy costs a `mkdocs build` about as much CPU time as MkDocs spends on a small
site, yet a build whose bundle is the last build's (mkdocs_plugin/bundle_reuse.py) runs no code
that needs it. Modules of the plugin that use numpy only inside their functions name it through
`lazy_module`; the first attribute read loads it (importlib's LazyLoader).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module `name`: as imported already, else one that loads on its first attribute read."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
