"""The live tables: the registry, delivery to sockets, the computer players' scheduler, restore, the lobby."""
