"""The network: the app, sockets, the hub that receives every message, the HTTP API."""
