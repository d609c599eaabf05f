"""Hartenjagen server side: the command line, the table server, persistence and tools."""
