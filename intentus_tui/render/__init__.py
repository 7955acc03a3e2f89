"""Renderings of the core's results for people and programs: the listing rows and
documents the command line prints. Imports the core; never the debugger or the command
line."""
