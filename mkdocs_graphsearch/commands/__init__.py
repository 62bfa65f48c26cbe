"""The command line and the agents' side: `graphsearch` (cli.py), the MCP server and its tools,
judged-set evaluation and the node driver for the JS engine. Never imported by the plugin."""
