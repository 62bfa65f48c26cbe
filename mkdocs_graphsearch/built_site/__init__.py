"""`graphsearch build SITE_DIR`: search added to a site some generator already built (Zensical,
MkDocs without the plugin, Sphinx, hand-written HTML), Pagefind's way. It reads the built pages
(html_files.py), cuts each at its content by the theme's markers (regions.py, selectors.py), learns
what the host leaves out of search (host_index.py) or reads the sources' front matter
(sources.py), then writes the bundle, the runtime and the tags into the site (site_build.py,
page_tags.py) with the pipeline the plugin uses."""
