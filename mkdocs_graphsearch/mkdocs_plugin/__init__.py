"""The MkDocs side: the plugin's typed options, the pages MkDocs renders, what a build keeps for
the next one, and the related-pages block. `plugin.py` at the package root wires MkDocs' hooks
to these modules. Never imported by the command line."""
