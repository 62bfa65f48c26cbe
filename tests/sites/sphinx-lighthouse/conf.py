# A tiny Sphinx project (tests/test_built_site.py builds it with `sphinx-build -b html`):
# section ids sit on <section id> around each heading, not on the heading.
project = "Lighthouse"
html_theme = "alabaster"
