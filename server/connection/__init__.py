"""A connection and what it may do: the ``Client``, the close codes, its rate limits and the limits per address."""
