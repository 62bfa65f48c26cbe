"""What the plugin and the command line share above the core: search checks, bounded reading of
user files, and text made safe for a terminal."""
