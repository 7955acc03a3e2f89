"""Exports of executions for other tools: OTLP traces (``otlp``) and the executions to
export from a location (``source``). Headless: the command line writes what these give."""
