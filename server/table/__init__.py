"""The I/O-free table: state as the fold of its log, commands, the step, seat views and update messages.

The browser's offline engine ships this whole package beside ``shared/``: it imports nothing else of the server.
"""
