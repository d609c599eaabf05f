"""Several nodes on PostgreSQL and Redis: table ownership, the relay between nodes, shared Play now."""
