"""Generates a page at build time (mkdocs-gen-files): it has no file in docs/."""

import mkdocs_gen_files

with mkdocs_gen_files.open("generated/fleet.md", "w") as page:
    page.write("# Fleet\n\n## Tugboats\n\nThe tugboatfleet roster is generated at build time.\n")
