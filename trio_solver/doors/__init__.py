"""The ways into the library: the command line, the stdio protocol, the HTTP service and its web
board, the terminal game, and the learning environments."""
